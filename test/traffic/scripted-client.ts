// A scripted API client for the traffic verifier's own proof: varied, deterministic traffic a real client
// would send (lists with every filter, sorts and since bounds, cursor walks, creates with and without an
// Idempotency-Key, replays, invalid bodies, unknown ids, missing keys, the rate-limited key into 429), and a
// few client mistakes on purpose (no key, a broken body, an array body, a limit out of range, a reused
// Idempotency-Key).
// Sequential, so the same server gives the same traffic: the mutation report compares runs exchange by exchange.
import { RESOURCE_LIST } from '../../src/spec/resources.ts'

export interface ScriptedClientOptions {
  /** The API's base URL (through the proxy or not), `/v1` included. */
  baseUrl: string
  keys: { main: string; rateLimited?: string; restricted?: string; revoked?: string; foreign?: string }
  /** Records in states the API cannot reach on its own (the reference server's fixtures), for the §3 state rules. */
  fixtures?: { sentQuotationId?: string; sentInvoiceId?: string; acceptedQuotationId?: string }
  /** Requests the rate-limited key sends in a row (enough to pass its per-minute limit). Default 24. */
  burst?: number
}

const UNKNOWN_ID = '00000000-0000-4000-8000-00000000abcd'
const SINCE = '2020-01-01T00:00:00.000Z'

interface Reply {
  status: number
  body: unknown
}

export async function driveScriptedTraffic(options: ScriptedClientOptions): Promise<number> {
  const base = options.baseUrl.replace(/\/+$/, '')
  let sent = 0
  const call = async (
    method: string,
    path: string,
    init: { key?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ): Promise<Reply> => {
    const headers: Record<string, string> = { accept: 'application/json', ...init.headers }
    const key = init.key === undefined ? options.keys.main : init.key
    if (key) headers.authorization = `Bearer ${key}`
    let body: string | undefined
    if (init.rawBody !== undefined) body = init.rawBody
    else if (init.body !== undefined) body = JSON.stringify(init.body)
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) })
    sent++
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      // Kept as text.
    }
    return { status: res.status, body: parsed }
  }
  const dataOf = (reply: Reply): Record<string, unknown>[] => {
    const data = (reply.body as { data?: unknown })?.data
    return Array.isArray(data) ? (data as Record<string, unknown>[]) : []
  }

  await call('GET', '/me')

  // Lists of every collection: a page, every filter with a value the page shows (case variants for the
  // case-insensitive ones), both sorts and orders, the since bounds.
  for (const resource of RESOURCE_LIST) {
    if (!resource.ops.list) continue
    // A whole page, its records in id order: the values picked do not depend on the order of records created
    // in the same millisecond.
    const page = await call('GET', `${resource.path}?limit=100`)
    const records = dataOf(page).sort((a, b) => String(a.id).localeCompare(String(b.id)))
    for (const filter of resource.filters) {
      const seen = records.map((r) => r[filter.field]).find((v): v is string => typeof v === 'string' && v !== '')
      const value = filter.kind === 'enum' ? (filter.values?.[0] ?? seen) : (seen ?? (filter.kind === 'uuid' ? UNKNOWN_ID : 'no-such-value'))
      if (value === undefined) continue
      await call('GET', `${resource.path}?${new URLSearchParams({ [filter.param]: value, limit: '10' })}`)
      if (filter.kind === 'uuid' && seen) await call('GET', `${resource.path}?${new URLSearchParams({ [filter.param]: UNKNOWN_ID, limit: '10' })}`)
      if (filter.kind === 'enum') {
        // Each end of the list (§3.3 "only the values listed"): a server may refuse the one it forgot.
        const lastValue = filter.values?.at(-1)
        if (lastValue !== undefined && lastValue !== value)
          await call('GET', `${resource.path}?${new URLSearchParams({ [filter.param]: lastValue, limit: '10' })}`)
        await call('GET', `${resource.path}?${new URLSearchParams({ [filter.param]: 'no_such_value', limit: '10' })}`)
      }
      if (filter.match === 'lowercase' && seen)
        await call('GET', `${resource.path}?${new URLSearchParams({ [filter.param]: seen.toUpperCase(), limit: '10' })}`)
      if (filter.match === 'uppercase' && seen)
        await call('GET', `${resource.path}?${new URLSearchParams({ [filter.param]: seen.toLowerCase(), limit: '10' })}`)
    }
    if (resource.name === 'account' || resource.name === 'contact' || resource.name === 'task') {
      for (const sort of ['createdAt', 'updatedAt'])
        for (const order of ['asc', 'desc']) await call('GET', `${resource.path}?sort=${sort}&order=${order}&limit=4`)
      await call('GET', `${resource.path}?createdSince=${encodeURIComponent(SINCE)}&limit=5`)
      await call('GET', `${resource.path}?updatedSince=${encodeURIComponent(SINCE)}&limit=5`)
    }
  }

  // Cursor walks: default page size (no limit) and small pages followed to the end (bounded): the default order, an
  // order asked for (newest first: the order a scan in stored order does not give by chance), and a createdSince
  // bound at the fourth newest account, so the second page of two reaches the bound and must stop there.
  await call('GET', '/accounts')
  const bound = dataOf(await call('GET', '/accounts?limit=4&sort=createdAt&order=desc'))[3]?.createdAt
  const walks = ['/accounts?limit=2', '/contacts?limit=3&sort=updatedAt&order=asc', '/tasks?limit=2&sort=createdAt&order=desc']
  if (typeof bound === 'string') walks.push(`/accounts?${new URLSearchParams({ createdSince: bound, limit: '2' })}`)
  for (const path of walks) {
    let next = path
    for (let i = 0; i < 8; i++) {
      const reply = await call('GET', next)
      const cursor = (reply.body as { nextCursor?: unknown })?.nextCursor
      if (typeof cursor !== 'string' || cursor === '' || dataOf(reply).length === 0) break
      next = `${path.split('?')[0]}?${new URLSearchParams({ ...Object.fromEntries(new URLSearchParams(path.split('?')[1])), cursor })}`
    }
  }

  // Creates: without a key, with a key and its replay, then reads, an update, and a delete. A sync client looks
  // the address up first (a filter that matches nothing: an empty page).
  await call('GET', `/accounts?${new URLSearchParams({ email: 'plain@traffic.example', limit: '1' })}`)
  const plain = await call('POST', '/accounts', { body: { name: 'Traffic Plain Sdn Bhd', email: 'plain@traffic.example', tags: ['traffic'] } })
  const keyed = { name: 'Traffic Keyed Sdn Bhd', industry: 'Retail' }
  const first = await call('POST', '/accounts', { body: keyed, headers: { 'idempotency-key': 'traffic-create-1' } })
  await call('POST', '/accounts', { body: keyed, headers: { 'idempotency-key': 'traffic-create-1' } })
  await call('POST', '/contacts', {
    body: { firstName: 'Aisha', lastName: 'Rahman', email: 'Aisha.Rahman@traffic.example' },
    headers: { 'idempotency-key': 'traffic-contact-1' },
  })
  await call('POST', '/tasks', { body: { title: 'Call back' } })
  const id = (first.body as { id?: unknown })?.id
  if (typeof id === 'string') {
    await call('GET', `/accounts/${id}`)
    const changed = await call('PATCH', `/accounts/${id}`, { body: { industry: 'Wholesale' } })
    if (changed.status === 405 || changed.status === 404) await call('PUT', `/accounts/${id}`, { body: { ...keyed, industry: 'Wholesale' } })
    await call('GET', `/accounts/${id}`)
    await call('GET', `/accounts?limit=5&sort=updatedAt&order=desc`)
  }
  const plainId = (plain.body as { id?: unknown })?.id
  if (typeof plainId === 'string') {
    await call('DELETE', `/accounts/${plainId}`)
    await call('GET', `/accounts/${plainId}`)
  }

  // Errors a conformant server answers: unknown ids, a non-uuid id, invalid bodies (client mistakes, on purpose).
  await call('GET', `/accounts/${UNKNOWN_ID}`)
  await call('GET', `/contacts/${UNKNOWN_ID}`)
  await call('GET', '/accounts/not-a-uuid')
  await call('POST', '/accounts', { body: {} })
  await call('POST', '/accounts', { body: { name: 42 } })
  await call('POST', '/accounts', { rawBody: '{"name": ' })
  await call('POST', '/contacts', { body: { firstName: 'X', email: 12 } })
  // A batch-minded client's array of one body (§7.3: a body is an object of fields), and a filter value holding
  // quotes (§4.3: exact, quotes included; matches nothing here).
  await call('POST', '/accounts', { body: [{ name: 'Traffic Array Sdn Bhd' }] })
  await call('GET', `/accounts?${new URLSearchParams({ tier: `traffic"q' OR 'a'='a`, limit: '10' })}`)
  await call('GET', '/accounts?limit=500')
  await call('GET', '/accounts?limit=0')
  // A different body reusing an Idempotency-Key (the spec leaves the answer open).
  await call('POST', '/accounts', { body: { name: 'Another body' }, headers: { 'idempotency-key': 'traffic-create-1' } })
  // Missing and unknown keys.
  await call('GET', '/accounts', { key: null })
  await call('GET', '/me', { key: null })
  await call('GET', '/accounts', { key: 'crm_ws_main_notakeyatall0000' })
  // Keys that are not valid the way the header carries them: another scheme, a malformed key, a key whose
  // prefix was changed, a revoked key; and another workspace's key reading this workspace's record.
  await call('GET', '/me', { key: null, headers: { authorization: 'Basic dXNlcjpwYXNz' } })
  await call('GET', '/me', { key: 'garbage' })
  await call('GET', '/me', { key: options.keys.main.replace(/^[^_]+_/, 'xyz_') })
  if (options.keys.revoked) await call('GET', '/accounts?limit=1', { key: options.keys.revoked })
  if (options.keys.foreign) {
    await call('GET', '/accounts?limit=3', { key: options.keys.foreign })
    if (typeof id === 'string') await call('GET', `/accounts/${id}`, { key: options.keys.foreign })
  }
  // Writes the record's state does not allow (§3): a sent quotation or invoice replaced or deleted, an order
  // from a quotation that is not accepted; then an order from the accepted one.
  const fixtures = options.fixtures ?? {}
  if (fixtures.sentQuotationId) {
    await call('GET', `/quotations/${fixtures.sentQuotationId}`)
    await call('PUT', `/quotations/${fixtures.sentQuotationId}`, { body: { title: 'Replaced while sent', items: [] } })
    await call('DELETE', `/quotations/${fixtures.sentQuotationId}`)
    await call('GET', `/quotations/${fixtures.sentQuotationId}`)
    await call('POST', '/orders', { body: { quoteId: fixtures.sentQuotationId } })
  }
  if (fixtures.sentInvoiceId) {
    await call('GET', `/invoices/${fixtures.sentInvoiceId}`)
    await call('PUT', `/invoices/${fixtures.sentInvoiceId}`, { body: { title: 'Replaced while sent', items: [] } })
    await call('GET', `/invoices/${fixtures.sentInvoiceId}`)
  }
  const draft = await call('POST', '/quotations', {
    body: { title: 'Traffic draft', items: [{ name: 'Widget', quantity: 2, unitPriceSen: 1500, taxRatePct: 6 }] },
  })
  const draftId = (draft.body as { id?: unknown })?.id
  if (typeof draftId === 'string') {
    await call('PUT', `/quotations/${draftId}`, {
      body: { title: 'Traffic draft v2', items: [{ name: 'Widget', quantity: 3, unitPriceSen: 1500, taxRatePct: 6 }] },
    })
    await call('GET', `/quotations/${draftId}`)
    await call('POST', '/orders', { body: { quoteId: draftId } })
  }
  if (fixtures.acceptedQuotationId) {
    await call('GET', `/quotations/${fixtures.acceptedQuotationId}`)
    await call('POST', '/orders', { body: { quoteId: fixtures.acceptedQuotationId } })
  }
  if (options.keys.restricted) {
    await call('GET', '/me', { key: options.keys.restricted })
    // A whole, valid product: outside the key's scopes it is refused for the scope, whatever the order of checks.
    await call('POST', '/products', { key: options.keys.restricted, body: { name: 'Nope', sku: 'NOPE-1', priceSen: 100 } })
  }

  // The rate-limited key into 429, then one retry at once (before Retry-After: a client mistake, on purpose).
  if (options.keys.rateLimited) {
    const burst = options.burst ?? 24
    for (let i = 0; i < burst; i++) {
      const reply = await call('GET', '/me', { key: options.keys.rateLimited })
      if (reply.status === 429) {
        await call('GET', '/me', { key: options.keys.rateLimited })
        break
      }
    }
  }
  return sent
}
