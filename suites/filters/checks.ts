// §4.3 list filters, generated from RESOURCES[*].filters: for every filter of every collection, soundness (only
// matching records come back, and none for a value nothing holds) and completeness (a record known to match is
// returned: an existing one, and one the run creates where it can); for the enumerated filters (§3.3, §4.3),
// every listed value is accepted and any other value refused with 400.
import { expectErrorEnvelope, defineCheck, RESOURCE_LIST, mayRefuseUnknownKey, queryValueFor, unmatchedValue } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, FilterSpec, ResourceName, ResourceSpec } from '../../src/checks/index.ts'
import { MAKERS } from './made.ts'
import { NEAR_MISS_PLANS, NOT_PROBED, WILDCARD_PLANS, probeNearMisses, type NearMissPlan } from './near-miss.ts'
import { crossableFilters, probeOtherFields } from './other-field.ts'
import { probeQuotes } from './quotes.ts'
import { describeQuery, expectFound, expectPage, expectSound, filterQuery } from './queries.ts'
import { sampleFor } from './samples.ts'

const area = 'filters'

function idOf(r: ResourceSpec, f: FilterSpec, property: string): string {
  return `${area}.${r.name}.${f.param}.${property}`
}

/** `GET /accounts?email=` */
function query(r: ResourceSpec, f: FilterSpec): string {
  return `GET ${r.path}?${f.param}=`
}

/** `accounts whose email is that value (exact address, lower case)` */
function meaning(r: ResourceSpec, f: FilterSpec): string {
  return `${r.path.slice(1)} whose ${f.field} matches${f.meaning ? ` (${f.meaning})` : ''}`
}

/** The form §4.3 asks the value in. */
const QUERIED_IN: Record<FilterSpec['match'], string> = {
  exact: '',
  lowercase: ', queried in lower case',
  uppercase: ', queried in upper case',
  e164: ', queried in E.164 form',
}

/** The value queried, except a person's address or number taken from the server's records (reports are shared). */
function observeValue(ctx: CheckContext, f: FilterSpec, value: string): void {
  if (f.param !== 'email' && f.param !== 'mobile') ctx.observe('queriedValue', value)
}

/**
 * Refusals §4.3 leaves open for a value nothing holds: a workspace-defined key (status, tier…) it does not know
 * (400, §7.8), and a uuid naming no record, which a server that loads the record first answers 404 or 400.
 */
function mayRefuseUnmatched(f: FilterSpec, status: number): boolean {
  if (f.kind === 'uuid') return status === 400 || status === 404
  return status === 400 && mayRefuseUnknownKey(f)
}

/** A value nothing holds: 200 with only matching records, in practice none, or a refusal §4.3 leaves open. */
async function expectUnmatched(ctx: CheckContext, resource: ResourceName, f: FilterSpec): Promise<void> {
  const value = unmatchedValue(f)!
  const res = await filterQuery(ctx, resource, f, value, false)
  ctx.observe('unmatchedValue.status', res.status)
  if (mayRefuseUnmatched(f, res.status)) {
    expectErrorEnvelope(res, '§7.1')
    return
  }
  expectSound(ctx, res, resource, f, value, ', for a value no record holds (expected an empty data array)')
}

function sound(r: ResourceSpec, f: FilterSpec): CheckDefinition {
  return defineCheck({
    id: idOf(r, f, 'sound'),
    clauses: ['§4.3', '§4.1'],
    level: 'MUST',
    area,
    title: `${query(r, f)} returns only ${meaning(r, f)}, and for a value no record holds an empty data array with 200${f.kind === 'uuid' ? ' (or a 404 or 400 with the error envelope)' : ''}`,
    async run(ctx) {
      const sample = await sampleFor(ctx, r.name, f)
      if (sample) {
        observeValue(ctx, f, sample.value)
        expectSound(ctx, await filterQuery(ctx, r.name, f, sample.value, true), r.name, f, sample.value)
      } else {
        ctx.note(`No listed ${r.name} has a ${f.field}: only the value-no-record-holds half ran.`)
      }
      await expectUnmatched(ctx, r.name, f)
    },
  })
}

function complete(r: ResourceSpec, f: FilterSpec): CheckDefinition {
  return defineCheck({
    id: idOf(r, f, 'complete'),
    clauses: ['§4.3'],
    level: 'MUST',
    area,
    title: `${query(r, f)} returns an existing ${r.name} whose ${f.field} matches${QUERIED_IN[f.match]}`,
    async run(ctx) {
      const sample = await sampleFor(ctx, r.name, f)
      if (!sample) return ctx.skip(`no listed ${r.name} has a ${f.field} to filter by`)
      observeValue(ctx, f, sample.value)
      await expectFound(ctx, r.name, f, sample.value, sample.record, await filterQuery(ctx, r.name, f, sample.value, true))
    },
  })
}

function completeNew(r: ResourceSpec, f: FilterSpec): CheckDefinition | undefined {
  const maker = MAKERS[r.name]
  if (!maker || maker.unreachable?.includes(f.param)) return undefined
  return defineCheck({
    id: idOf(r, f, 'complete-new'),
    clauses: ['§4.3'],
    level: 'MUST',
    area,
    title: `${query(r, f)} returns a ${r.name} the run just created${f.match === 'lowercase' ? ' with a mixed-case address, queried in lower case' : ''}`,
    writes: maker.writes,
    async run(ctx) {
      const record = await maker.make(ctx, f)
      const value = queryValueFor(f, record[f.field])
      if (value === undefined) return ctx.skip(`the ${r.name} the run created has ${f.field} ${JSON.stringify(record[f.field])}: nothing to filter by`)
      observeValue(ctx, f, value)
      await expectFound(ctx, r.name, f, value, record, await filterQuery(ctx, r.name, f, value, false))
    },
  })
}

/** §3.3 rule 3 names these enum filters; the others (comment kind, message direction) only list values in §4.3. */
const RULE_3_3 = new Set(['opportunity.status', 'task.status', 'product.status', 'article.visibility'])

/** The clause that lists the filter's values. */
const listedIn = (r: ResourceSpec, f: FilterSpec): string => (RULE_3_3.has(`${r.name}.${f.param}`) ? '§3.3' : '§4.3')

function values(r: ResourceSpec, f: FilterSpec): CheckDefinition {
  const listed = f.values ?? []
  return defineCheck({
    id: idOf(r, f, 'values'),
    clauses: [...new Set([listedIn(r, f), '§4.3'])],
    level: 'MUST',
    area,
    title: `${query(r, f)} accepts each of ${listed.join(', ')} with 200, returning only ${r.path.slice(1)} of that ${f.field}`,
    async run(ctx) {
      const answers = await Promise.all(listed.map((v) => filterQuery(ctx, r.name, f, v, true)))
      const counts: Record<string, number> = {}
      listed.forEach((v, i) => {
        const data = expectPage(ctx, answers[i]!, `${describeQuery(r.name, f, v)} (a listed value)`, listedIn(r, f))
        counts[v] = data.length
        expectSound(ctx, answers[i]!, r.name, f, v)
      })
      ctx.observe('countsOnFirstPage', counts)
    },
  })
}

function rejectsUnlisted(r: ResourceSpec, f: FilterSpec): CheckDefinition {
  const listed = f.values ?? []
  const clause = listedIn(r, f)
  return defineCheck({
    id: idOf(r, f, 'rejects-unlisted'),
    clauses: [clause, '§7.3'],
    // §3.3 says these filters accept only the listed values; §4.3 lists values without saying what others get.
    level: clause === '§3.3' ? 'MUST' : 'SHOULD',
    area,
    title: `${query(r, f)} with a value other than ${listed.join(', ')} is refused with 400 and the error envelope`,
    async run(ctx) {
      const value = 'crmconf-unlisted'
      const res = await ctx.api.get(r.path, { [f.param]: value, limit: 1 })
      if (res.status !== 400) {
        ctx.fail(`${describeQuery(r.name, f, value)}: status is ${res.status}, expected 400 (${clause}: the filter's values are ${listed.join(', ')})`, {
          expected: `400 invalid_request (${clause}, §7.3)`,
          exchanges: [res.exchange],
          data: res.body,
        })
      }
      expectErrorEnvelope(res, '§7.1')
      ctx.observe('errorCode', res.body.error.code)
    },
  })
}

/** The value-form family of an exact filter (near miss, wildcards, quotes): one §4.3 MUST check per form. */
function valueForm(r: ResourceSpec, f: FilterSpec, form: string, says: string, does: Pick<CheckDefinition, 'writes' | 'after' | 'run'>): CheckDefinition {
  return defineCheck({ id: idOf(r, f, form), clauses: ['§4.3'], level: 'MUST', area, title: `${query(r, f)} ${says}`, ...does })
}

function nearMiss(r: ResourceSpec, f: FilterSpec, plan: NearMissPlan): CheckDefinition {
  const says = `returns no ${r.name} whose ${f.field} only nearly matches: a prefix, a suffix or a substring of the value or the other way round${f.match === 'lowercase' || f.match === 'uppercase' || f.match === 'exact' ? ', or in another case' : ''}`
  return valueForm(r, f, 'near-miss', says, probesNearMisses(r, f, plan))
}

/** The filters near-miss and wildcard checks wait for: the collection's other filters' complete-new checks. */
function madeAfter(r: ResourceSpec): string[] {
  return r.filters.filter((other) => MAKERS[r.name] && !MAKERS[r.name]!.unreachable?.includes(other.param)).map((other) => idOf(r, other, 'complete-new'))
}

/**
 * What a near-miss or wildcard check declares and does, for one reason: it runs the plan's probe, which writes
 * the plan's records. Its records match the collection's other filters (an owner, a status): they must not be
 * the newest match while a complete-new check looks for the record it made.
 */
function probesNearMisses(r: ResourceSpec, f: FilterSpec, plan: NearMissPlan): Pick<CheckDefinition, 'writes' | 'after' | 'run'> {
  return { writes: plan.writes, after: madeAfter(r), run: (ctx) => probeNearMisses(ctx, plan, f) }
}

function wildcards(r: ResourceSpec, f: FilterSpec, plan: NearMissPlan): CheckDefinition {
  const says = `reads %, _, * ${f.param === 'email' ? "and '" : 'quotes and a backslash'} in the value as themselves: no ${r.name} that the value read as a LIKE or glob pattern${f.match === 'exact' ? '' : ' in another case'} would match comes back, the exact one does`
  return valueForm(r, f, 'wildcards-literal', says, probesNearMisses(r, f, plan))
}

/** The quotes form for the exact filters no wildcard plan writes (whose values hold quotes): one read (quotes.ts). */
function quotesLiteral(r: ResourceSpec, f: FilterSpec): CheckDefinition {
  const says = `given a value holding ' and " (and an OR 'a'='a tail) reads the quotes as part of the value: only ${r.path.slice(1)} holding it come back (none), or a 400 with the error envelope, never a 5xx`
  return valueForm(r, f, 'quotes-literal', says, { run: (ctx) => probeQuotes(ctx, r.name, f) })
}

function otherField(r: ResourceSpec): CheckDefinition {
  const crossed = crossableFilters(r.name)
  return defineCheck({
    id: `${area}.${r.name}.other-field`,
    clauses: ['§4.3'],
    level: 'MUST',
    area,
    title: `${crossed.map((f) => `${r.path}?${f.param}=`).join(', ')} given an id the run's ${r.name} holds in another field return no such record (each filter reads its own field)`,
    writes: MAKERS[r.name]!.writes,
    async run(ctx) {
      const judged = await probeOtherFields(ctx, r.name, mayRefuseUnmatched)
      ctx.observe('crossingsJudged', judged)
      if (judged === 0) ctx.skip("no crossing could be set up (no other id held, or the run's record never listed by its own value): none was judged")
    },
  })
}

/** The exact filters no near miss can be made for, and why: reported, never judged. */
const nearMissNotProbed = defineCheck({
  id: `${area}.near-miss.not-probed`,
  clauses: ['§4.3'],
  level: 'INFO',
  area,
  title: 'The exact filters of §4.3 whose near misses the run cannot create (a field it may not write, or no value that nearly matches another)',
  async run(ctx) {
    ctx.observe('notProbed', NOT_PROBED)
  },
})

function checksFor(r: ResourceSpec, f: FilterSpec): (CheckDefinition | undefined)[] {
  const common = [complete(r, f), completeNew(r, f)]
  const plan = NEAR_MISS_PLANS.find((p) => p.resource === r.name && p.param === f.param)
  const wild = WILDCARD_PLANS.find((p) => p.resource === r.name && p.param === f.param)
  // A wildcard plan's queried value holds quotes already; the other exact filters get the quotes alone.
  const forms = wild ? [wildcards(r, f, wild)] : f.kind === 'string' ? [quotesLiteral(r, f)] : []
  const probes = [...(plan ? [nearMiss(r, f, plan)] : []), ...forms]
  return f.kind === 'enum' ? [values(r, f), rejectsUnlisted(r, f), ...common] : [sound(r, f), ...common, ...probes]
}

export const checks: CheckDefinition[] = [
  ...RESOURCE_LIST.flatMap((r) => r.filters.flatMap((f) => checksFor(r, f))).filter((c): c is CheckDefinition => c !== undefined),
  ...RESOURCE_LIST.filter((r) => crossableFilters(r.name).length > 0).map(otherField),
  nearMissNotProbed,
]
