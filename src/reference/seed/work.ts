// Work: tasks about accounts and contacts, and activities (one with a body past the 500-character preview, §2).

import { isoOf } from '../clock.ts'
import { SEED_EPOCH, type SeedContext } from './seeder.ts'

export function seedWork(ctx: SeedContext): void {
  const { s, big, admin, sales, accounts, contacts } = ctx
  const taskStatuses = big ? ['open', 'open', 'done', 'cancelled', 'open'] : ['open']
  taskStatuses.forEach((status, i) => {
    const about =
      i % 2 === 0
        ? { entityType: 'account', entityId: accounts[i % accounts.length].id, accountId: accounts[i % accounts.length].id }
        : { entityType: 'contact', entityId: contacts[i % contacts.length].id, contactId: contacts[i % contacts.length].id }
    s.add(
      'task',
      {
        number: s.number('task', 'TASK'),
        title: ['Call back about the proposal', 'Send the product catalogue', 'Confirm the delivery date', 'Book a site visit', 'Renewal reminder'][i],
        description: null,
        status,
        priority: ['high', 'medium', 'low', 'urgent', 'medium'][i],
        dueAt: isoOf(SEED_EPOCH + (i + 3) * 86_400_000),
        remindAt: null,
        assigneeId: sales[i % sales.length] ?? admin,
        teamId: null,
        ...about,
        completedAt: status === 'done' ? isoOf(SEED_EPOCH + 2 * 86_400_000) : null,
      },
      { recurrence: null },
      900,
    )
  })

  const kinds = big ? ['call', 'email', 'note', 'chat', 'meeting'] : ['note']
  kinds.forEach((kind, i) => {
    const contact = contacts[i % contacts.length]
    const long = i === 2 ? 'Meeting notes. '.repeat(60) : null
    const occurred = SEED_EPOCH + (i + 1) * 43_200_000
    s.add(
      'activity',
      {
        kind,
        subjectType: 'contact',
        subjectId: contact.id,
        accountId: contact.primaryAccountId,
        contactId: contact.id,
        title: [`Call with ${contact.fullName}`, 'Sent the price list', 'Internal note', 'Chat about delivery', 'Quarterly review'][i],
        // §2, §8: the record carries a preview of at most 500 characters.
        body: long ? long.slice(0, 500) : 'Discussed the next steps.',
        actorUserId: sales[i % sales.length] ?? admin,
        actorType: 'user',
        occurredAt: isoOf(occurred),
      },
      { fullBody: long },
    )
  })
}
