// §4.3 exact filters probed with near misses: records the run creates whose value contains the queried value
// (it is their prefix or suffix), or is contained in it, or holds it in the other case where §4.3 fixes one
// (email lower case, SKU upper case). A server that matches by substring, prefix or case-folding returns them;
// an exact filter never does. The queried record itself is written last: it is the positive control that shows
// the list has caught up before the near misses' absence is judged (src/checks/eventually.ts).
import { CheckFailed, createRecord, runLabel, safePhone, readUntil, recordMatches } from '../../src/checks/index.ts'
import type { CheckContext, WriteNeed, AnyRecord, ApiResponse, FilterSpec, ResourceName } from '../../src/checks/index.ts'
import { randomUUID } from 'node:crypto'
import { describeQuery, expectPage, filterQuery } from './queries.ts'

export interface NearMissValue {
  value: string
  /** How it nearly matches the queried value, for the report. */
  how: string
}

export interface NearMissPlan {
  resource: ResourceName
  param: string
  writes: WriteNeed
  /** The queried value and its near misses, all new to the workspace. */
  values(): { target: string; misses: NearMissValue[] }
  /** A create body holding `value` in the filtered field. */
  body(ctx: CheckContext, value: string): AnyRecord
}

const token = () => randomUUID().replace(/-/g, '').slice(0, 10)

/** Longer and shorter neighbours of a free string: prefix, suffix and substring relations both ways. */
function stringMisses(v: string, otherCase?: NearMissValue): NearMissValue[] {
  return [
    { value: `${v}-X`, how: 'the queried value is its prefix' },
    { value: `X-${v}`, how: 'the queried value is its suffix' },
    { value: `X-${v}-X`, how: 'the queried value is inside it' },
    { value: v.slice(0, -2), how: 'a prefix of the queried value' },
    { value: v.slice(3), how: 'a suffix of the queried value' },
    ...(otherCase ? [otherCase] : []),
  ]
}

/**
 * Addresses stay in the reserved example.com domain (safe profile): the one holding the queried address as its
 * prefix extends the domain to a subdomain of example.com.
 */
function emailValues(): { target: string; misses: NearMissValue[] } {
  const local = `crmconf.nm.${token()}`
  const target = `${local}@example.com`
  return {
    target,
    misses: [
      { value: `${local}@example.com.example.com`, how: 'the queried address is its prefix' },
      { value: `x.${target}`, how: 'the queried address is its suffix' },
      { value: `${local.slice(8)}@example.com`, how: 'a suffix of the queried address' },
      // §4.3 "lower case": the other case of an address that holds the queried one (a prefix of its own, so that a
      // server storing addresses in lower case, or refusing an address twice, keeps it apart from the one above).
      { value: `UP.${target.toUpperCase()}`, how: 'the queried address is its suffix, in upper case' },
    ],
  }
}

/**
 * Numbers around a fictional 555-01xx number (safe profile): one digit more or one less is no NANP number at all.
 * E.164 starts with `+`, so no number holds another as its suffix.
 */
function mobileValues(): { target: string; misses: NearMissValue[] } {
  const target = safePhone(Math.floor(Math.random() * 100))
  return {
    target,
    misses: [
      { value: `${target}7`, how: 'the queried number is its prefix' },
      { value: target.slice(0, -1), how: 'a prefix of the queried number' },
    ],
  }
}

function label(ctx: CheckContext, what: string): string {
  return runLabel(ctx, `filters near miss ${what}`)
}

/**
 * The exact filters whose field a run may write with a value of its own (§4.4), in a collection it may write to.
 * The others are listed in NOT_PROBED with the reason.
 */
export const NEAR_MISS_PLANS: NearMissPlan[] = [
  { resource: 'account', param: 'email', writes: 'safe', values: emailValues, body: (ctx, email) => ({ name: label(ctx, 'account'), email }) },
  {
    resource: 'account',
    param: 'tier',
    writes: 'safe',
    values: () => {
      const target = `crmconf-nm-${token()}`
      // "exact tier": a tier differing only in case is another tier.
      return { target, misses: stringMisses(target, { value: target.toUpperCase(), how: 'the queried value in upper case' }) }
    },
    body: (ctx, tier) => ({ name: label(ctx, 'account'), tier }),
  },
  { resource: 'contact', param: 'email', writes: 'safe', values: emailValues, body: (ctx, email) => ({ fullName: label(ctx, 'contact'), email }) },
  { resource: 'contact', param: 'mobile', writes: 'safe', values: mobileValues, body: (ctx, mobile) => ({ fullName: label(ctx, 'contact'), mobile }) },
  { resource: 'lead', param: 'email', writes: 'safe', values: emailValues, body: (ctx, email) => ({ fullName: label(ctx, 'lead'), email, source: 'api' }) },
  {
    resource: 'product',
    param: 'sku',
    // Products cannot be deleted (§4.2).
    writes: 'full',
    values: () => {
      const target = `CRMCONF-NM-${token().toUpperCase()}`
      // §4.3 "upper case": the other case of a SKU that holds the queried one (a prefix of its own: SKUs are unique,
      // and a server may store them in upper case).
      return { target, misses: stringMisses(target, { value: `lc-${target.toLowerCase()}`, how: 'the queried SKU is its suffix, in lower case' }) }
    },
    body: (ctx, sku) => ({ sku, name: label(ctx, 'product'), priceSen: 100 }),
  },
]

/**
 * §4.3 exact filters given characters that mean something to a database or a search engine: `%` and `_` (SQL LIKE),
 * `*` (glob, search syntax), quotes and a backslash (string and escape syntax). The queried value holds them
 * literally; each miss is a value that the queried one, read as a pattern, would match. A server that compiles the
 * filter into an unescaped LIKE (ILIKE where §4.3 fixes the case) returns them; an exact filter never does. Email
 * addresses keep to characters every address validator accepts (`_`, `'`).
 */
export const WILDCARD_PLANS: NearMissPlan[] = [
  {
    resource: 'account',
    param: 'tier',
    writes: 'safe',
    values: () => {
      const t = token()
      const target = `crmconf_lk%${t}'q"\\*`
      return {
        target,
        misses: [
          { value: `crmconfXlkANY${t}'q"\\ANY`, how: '_, % and * of the queried value read as wildcards' },
          { value: `crmconfXlk${t}'q"\\*`, how: '_ and % read as LIKE wildcards, * literal' },
          { value: `crmconfXlk${t}'q"*`, how: 'a LIKE pattern whose backslash escapes the *' },
        ],
      }
    },
    body: (ctx, tier) => ({ name: label(ctx, 'account'), tier }),
  },
  {
    resource: 'contact',
    param: 'email',
    writes: 'safe',
    values: () => {
      const t = token()
      const target = `crmconf_o'lk.${t}@example.com`
      return {
        target,
        misses: [
          { value: `crmconfXo'lk.${t}@example.com`, how: '_ of the queried address read as a LIKE wildcard' },
          { value: `CRMCONF-O'LK.${t.toUpperCase()}@example.com`, how: '_ read as a wildcard, in upper case (an ILIKE)' },
        ],
      }
    },
    body: (ctx, email) => ({ fullName: label(ctx, 'contact'), email }),
  },
  {
    resource: 'product',
    param: 'sku',
    // Products cannot be deleted (§4.2).
    writes: 'full',
    values: () => {
      const t = token().toUpperCase()
      const target = `CRMCONF_LK%${t}`
      return {
        target,
        misses: [
          { value: `CRMCONFXLKANY${t}`, how: '_ and % of the queried SKU read as LIKE wildcards' },
          { value: `crmconf-lk${t.toLowerCase()}`, how: '_ and % read as wildcards, in lower case (an ILIKE)' },
        ],
      }
    },
    body: (ctx, sku) => ({ sku, name: label(ctx, 'product'), priceSen: 100 }),
  },
]

/** The other exact filters of §4.3, and why the run cannot make a near miss for them. */
export const NOT_PROBED: Record<string, string> = {
  'case.status': 'workspace-defined status keys; §3 shows none, so the run cannot write one that nearly matches another',
  'case.priority': 'workspace-defined priority keys; §4.4 names none',
  'comment.kind': 'public and internal share no prefix, and a public reply is emailed (§1.6)',
  'lead.status': 'the writable values new, contacted, qualifying share no prefix (§3); the others are not writable',
  'opportunity.status': 'open, won, lost share no prefix, and only open is reached by a create (§4.4)',
  'opportunity.stageKey': 'workspace-defined stage keys of a pipeline the API does not show',
  'quotation.status': 'not writable (§4.4); the states other than draft are not shown (§3)',
  'order.status': 'not writable (§4.4); no state is named (§3)',
  'invoice.status': 'not writable (§4.4); the states other than draft are not shown (§3)',
  'product.status': 'active and archived share no prefix (§3)',
  'task.status': 'not writable (§4.4)',
  'activity.kind': 'the create values call, email, chat, note share no prefix (§4.4)',
  'article.status': 'articles cannot be written (§4.2)',
  'article.visibility': 'articles cannot be written (§4.2)',
  'message.direction': 'not writable: a created message is what the server records (§4.4)',
  'user.status': 'users are read only (§4.2)',
  'user.email': 'users are read only (§4.2)',
}

interface Made {
  record: AnyRecord
  how: string
}

async function make(ctx: CheckContext, plan: NearMissPlan, value: string): Promise<AnyRecord | string> {
  try {
    return (await createRecord(ctx, plan.resource, plan.body(ctx, value))).record
  } catch (error) {
    if (error instanceof CheckFailed) return error.message
    throw error
  }
}

/**
 * Creates the near misses, then the record holding the queried value; queries the filter until that record is
 * listed, and fails when a near miss (or any record whose field does not match) comes back.
 */
export async function probeNearMisses(ctx: CheckContext, plan: NearMissPlan, filter: FilterSpec): Promise<void> {
  const { target, misses } = plan.values()
  const attempts = await Promise.all(misses.map(async (m) => ({ miss: m, made: await make(ctx, plan, m.value) })))
  const made: Made[] = []
  const refused: string[] = []
  for (const { miss, made: r } of attempts) {
    if (typeof r === 'string') refused.push(`${miss.how}: ${r}`)
    // A server may store the value in a normal form that makes it equal to the queried one: no near miss then.
    else if (recordMatches(filter, r, target))
      ctx.note(
        `the ${plan.resource} written with ${plan.param} ${JSON.stringify(miss.value)} (${miss.how}) was stored as ${JSON.stringify(r[filter.field])}, which matches: not a near miss`,
      )
    else made.push({ record: r, how: miss.how })
  }
  if (refused.length > 0) ctx.note(`near misses refused on create: ${refused.join('; ')}`)
  ctx.observe(
    'nearMisses',
    made.map((m) => m.how),
  )
  if (made.length === 0) return ctx.skip(`no near-miss ${plan.resource} could be created (${refused.length} refused); nothing to probe`)
  const control = await make(ctx, plan, target)
  if (typeof control === 'string') return ctx.skip(`the ${plan.resource} holding the queried ${plan.param} could not be created: ${control}`)
  const controlId = String(control.id).toLowerCase()
  const what = describeQuery(plan.resource, filter, target)
  const listsControl = (res: ApiResponse) =>
    res.status === 200 && Array.isArray(res.body?.data) && res.body.data.some((r: AnyRecord) => String(r?.id).toLowerCase() === controlId)
  const { answer, shown } = await readUntil(ctx, () => filterQuery(ctx, plan.resource, filter, target, false), listsControl)
  const data = expectPage(ctx, answer, what)
  const byId = new Map(made.map((m) => [String(m.record.id).toLowerCase(), m]))
  const offending = data.filter((r) => !recordMatches(filter, r, target))
  if (offending.length > 0) {
    const quoted = offending
      .slice(0, 5)
      .map((r) => ({ id: r?.id, [filter.field]: r?.[filter.field], nearMiss: byId.get(String(r?.id).toLowerCase())?.how ?? null }))
    const ours = offending.filter((r) => byId.has(String(r?.id).toLowerCase())).map((r) => byId.get(String(r.id).toLowerCase())!.how)
    ctx.fail(
      `${what} returned ${offending.length} record(s) whose ${filter.field} only nearly matches${ours.length > 0 ? ` (${ours.join('; ')})` : ''} (§4.3 ${filter.meaning})`,
      {
        expected: `only records whose ${filter.field} is ${filter.meaning} (§4.3): no prefix, suffix or substring match${filter.match === 'lowercase' || filter.match === 'uppercase' ? ', and case folded only as §4.3 says' : ''}`,
        exchanges: [answer.exchange],
        data: { offending: quoted },
      },
    )
  }
  if (!shown) {
    ctx.skip(
      `${plan.resource} ${control.id}, holding the queried ${plan.param}, is not listed by ${what} within ${ctx.config.consistencyWindowMs} ms (CRM_CONSISTENCY_WINDOW_MS): the near misses' absence cannot be judged (the complete checks judge the record's absence)`,
    )
  }
}
