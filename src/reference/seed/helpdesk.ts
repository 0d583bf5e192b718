// The helpdesk: cases in every status with their comments, knowledge-base articles, and conversations with
// messages (which the API cannot open itself, §4.2).

import { isoOf } from '../clock.ts'
import { SEED_EPOCH, type SeedContext } from './seeder.ts'

export function seedCases(ctx: SeedContext): void {
  const { s, rng, p, big, admin, agents, accounts, contacts, supportTeamId, categoryIds } = ctx
  const caseStatuses = big ? ['new', 'open', 'pending', 'resolved', 'closed'] : ['open']
  const cases = caseStatuses.map((status, i) => {
    const category = status === 'resolved' || status === 'closed' ? status : status === 'new' ? 'new' : status === 'pending' ? 'pending' : 'open'
    const number = s.number('case', 'CASE')
    return s.add(
      'case',
      (created) => ({
        number,
        subject: ['Delivery arrived damaged', 'Cannot log in to the portal', 'Invoice amount looks wrong', 'Request for a product demo', 'Refund not received'][
          i
        ],
        description: 'Reported by the customer.',
        channel: rng.pick(['email', 'chat', 'phone', 'web']),
        categoryId: categoryIds[i % categoryIds.length],
        subCategoryId: null,
        priority: ['high', 'normal', 'low', 'urgent', 'normal'][i],
        status,
        statusCategory: category,
        accountId: accounts[i % accounts.length].id,
        contactId: contacts[i % contacts.length].id,
        assigneeId: agents[i % agents.length] ?? admin,
        teamId: supportTeamId,
        tags: [],
        custom: {},
        resolution: status === 'resolved' || status === 'closed' ? 'Replaced the item.' : null,
        language: 'en',
        firstResponseDueAt: isoOf(created + 8 * 3_600_000),
        resolutionDueAt: isoOf(created + 72 * 3_600_000),
        firstRespondedAt: status === 'new' ? null : isoOf(created + 3_600_000),
        slaState: status === 'pending' ? 'breached' : 'active',
        resolvedAt: status === 'resolved' || status === 'closed' ? isoOf(created + 20 * 3_600_000) : null,
        closedAt: status === 'closed' ? isoOf(created + 30 * 3_600_000) : null,
      }),
      {},
      7200,
    )
  })

  cases.slice(0, big ? 3 : 1).forEach((c, i) => {
    s.add('comment', {
      caseId: c.id,
      kind: 'public',
      authorType: 'user',
      authorId: agents[0] ?? admin,
      authorName: p.users.find((u) => u.role === 'agent')?.name ?? p.users[0].name,
      body: '<p>Thank you for reaching out. We are looking into it.</p>',
      via: 'email',
    })
    if (i === 0 || !big) {
      s.add('comment', {
        caseId: c.id,
        kind: 'internal',
        authorType: 'user',
        authorId: admin,
        authorName: p.users[0].name,
        body: '<p>Check the courier report first.</p>',
        via: 'app',
      })
    }
  })
}

export function seedArticles(ctx: SeedContext): void {
  const { s, big, categoryIds } = ctx
  const articleRows = big
    ? [
        ['published', 'public', 'how-to-reset-your-password', 'How to reset your password'],
        ['published', 'internal', 'refund-approval-checklist', 'Refund approval checklist'],
        ['draft', 'public', 'delivery-times-by-region', 'Delivery times by region'],
        ['draft', 'internal', 'escalation-matrix', 'Escalation matrix'],
        ['archived', 'public', 'old-warranty-terms', 'Old warranty terms'],
      ]
    : [['published', 'public', 'shipping-policy', 'Shipping policy']]
  articleRows.forEach(([status, visibility, slug, title], i) => {
    s.add('article', {
      number: `KB-${String(i + 1).padStart(4, '0')}`,
      categoryId: categoryIds[i % categoryIds.length],
      slug,
      visibility,
      status,
      tags: visibility === 'internal' ? ['internal'] : ['help'],
      version: status === 'published' ? 2 : 1,
      publishedAt: status === 'published' || status === 'archived' ? isoOf(SEED_EPOCH + 86_400_000 * (i + 1)) : null,
      translations:
        status === 'draft'
          ? []
          : [
              { language: 'en', title, body: `<p>${title}.</p>` },
              ...(i === 0 ? [{ language: 'ms', title: 'Cara menetapkan semula kata laluan anda', body: '<p>Langkah demi langkah.</p>' }] : []),
            ],
    })
  })
}

export function seedConversations(ctx: SeedContext) {
  const { s, big, admin, agents, contacts } = ctx
  const conversations = (big ? ['whatsapp', 'web_chat'] : ['web_chat']).map((channel, i) =>
    s.addConversation({ channel, contactId: contacts[i % contacts.length].id, status: 'open' }),
  )
  conversations.forEach((conv, i) => {
    const rows: [string, string, string | null, string][] = [
      ['in', 'customer', null, 'Hi, is my order on the way?'],
      ['system', 'system', null, 'Conversation assigned to the support team.'],
      ['out', 'bot', null, 'Thanks! An agent will reply shortly.'],
      ['note', 'agent', agents[0] ?? admin, 'Customer is a gold-tier account.'],
      ['out', 'agent', agents[i % Math.max(1, agents.length)] ?? admin, 'Yes, it ships tomorrow.'],
    ]
    for (const [direction, author, authorUserId, body] of big ? rows : rows.slice(0, 2)) {
      s.add('message', {
        conversationId: conv.id,
        direction,
        author,
        authorUserId,
        body,
        status: direction === 'in' ? 'received' : direction === 'out' ? 'sent' : null,
      })
    }
  })
  return conversations
}
