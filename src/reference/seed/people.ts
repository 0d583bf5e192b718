// People and customers: the users of every role (read only, §2), the accounts (one a child, §4.3 parentId) and
// their contacts. Drawn first: every other group refers to them.

import type { OwnerRole } from '../auth.ts'
import type { Prng } from '../prng.ts'
import { MAIN_WORKSPACE } from './profiles.ts'
import type { Seeder, WorkspaceProfile } from './seeder.ts'

export function seedPeople(s: Seeder, rng: Prng, p: WorkspaceProfile, salesTeamId: string) {
  const store = s.store
  // Users (read only, §2): several, of every role, one inactive.
  const users = p.users.map((u) =>
    s.add('user', {
      email: `${u.email}@${p.domain}`,
      displayName: u.name,
      title: u.title,
      locale: u.locale ?? 'en',
      timezone: p.id === MAIN_WORKSPACE ? 'Asia/Kuala_Lumpur' : 'Asia/Singapore',
      status: u.status ?? 'active',
      availability: u.availability ?? 'online',
    }),
  )
  const userRoles = new Map(users.map((u, i) => [String(u.id), p.users[i].role]))
  const idsOf = (role: OwnerRole) => users.filter((u, i) => p.users[i].role === role && u.status === 'active').map((u) => String(u.id))
  const admin = String(users[0].id)
  const sales = idsOf('sales')
  const agents = idsOf('agent')

  const accounts = p.accounts.map((a, i) =>
    s.add(
      'account',
      {
        number: s.number('account', 'ACC'),
        name: a.name,
        legalName: a.name,
        registrationNo: `${202001000000 + rng.int(1000, 999999)}`,
        industry: a.industry,
        website: a.email ? `https://www.${a.email.split('@')[1].toLowerCase()}` : null,
        email: a.email,
        phone: `+603${rng.int(20000000, 99999999)}`,
        address: {
          line1: `${rng.int(1, 120)} Jalan ${rng.pick(['Ampang', 'Sultan', 'Bunga Raya', 'Merdeka'])}`,
          city: a.city,
          country: p.id === MAIN_WORKSPACE ? 'MY' : 'SG',
        },
        tier: a.tier,
        ownerId: sales[i % sales.length] ?? admin,
        teamId: salesTeamId,
        tags: i % 2 === 0 ? ['key-account'] : [],
        custom: { segment: i % 2 === 0 ? 'enterprise' : 'sme' },
        lastActivityAt: null,
      },
      { backupOwnerId: null },
      i * 3600,
    ),
  )
  // A child account (§4.3 parentId filter).
  if (accounts.length > 2) {
    const child = store.get(p.id, 'account', String(accounts[2].id))!
    store.put(p.id, 'account', { ...child, record: { ...child.record, parentId: accounts[0].id } })
  }

  const contacts = p.people.map((c, i) => {
    const account = accounts[i % accounts.length]
    return s.add(
      'contact',
      {
        number: s.number('contact', 'CON'),
        firstName: c.first,
        lastName: c.last,
        fullName: `${c.first} ${c.last}`,
        email: `${c.first.toLowerCase().replace(/\s+/g, '')}.${c.last.toLowerCase()}@${p.domain}`,
        mobile: c.mobile,
        office: null,
        home: null,
        title: rng.pick(['Procurement Manager', 'Finance Executive', 'Owner', 'IT Lead']),
        department: rng.pick(['Procurement', 'Finance', 'Management', 'IT']),
        locale: c.locale,
        primaryAccountId: account.id,
        ownerId: sales[i % sales.length] ?? admin,
        teamId: salesTeamId,
        tags: i === 0 ? ['decision-maker'] : [],
        custom: {},
      },
      { accountId: account.id, accountRole: 'member', fullNameGiven: false },
      i * 600,
    )
  })
  return { users, userRoles, admin, sales, agents, accounts, contacts }
}
