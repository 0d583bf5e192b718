// The checks that judge one resource's round trip (trip.ts), each one property, so that a failure names exactly
// what broke: the bodies match §2, what was written is read back, the record is listed, the update or replace
// holds, the timestamps behave, write-only fields stay out, and a deleted record is gone.
import {
  defineCheck,
  writeOnlyShown,
  describeMismatches,
  holdsWritten,
  isObject,
  meansWritten,
  textOfHtml,
  recordKey,
  validate,
  RESOURCES,
} from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, ApiResponse, AnyRecord, Mismatch, FieldType, ResourceSpec } from '../../src/checks/index.ts'
import type { RoundTripPlan } from './plans.ts'
import { tripOf, type Trip } from './trip.ts'

const area = 'records'

/** A record as one step of the trip saw it, with the response that carried it. */
interface Seen {
  step: string
  response: ApiResponse
  record: AnyRecord
}

/** Every record body the trip read, in order; steps that answered no record are left out. */
function seen(trip: Trip): Seen[] {
  const out: Seen[] = [{ step: 'create response', response: trip.created, record: trip.created.body }]
  if (trip.got.status === 200) out.push({ step: 'GET after create', response: trip.got, record: trip.got.body })
  if (trip.listed.record) out.push({ step: 'listed record', response: trip.listed.pages.at(-1)!, record: trip.listed.record })
  const change = trip.change
  if (change?.response.ok) out.push({ step: `${change.op} response`, response: change.response, record: change.response.body })
  if (change?.got?.status === 200) out.push({ step: `GET after ${change.op}`, response: change.got, record: change.got.body })
  return out.filter((s) => isObject(s.record))
}

/** The written fields of a body that the record shows, compared by meaning. */
function mismatches(spec: ResourceSpec, plan: RoundTripPlan, bodyFields: Record<string, FieldType>, sent: AnyRecord, record: AnyRecord): Mismatch[] {
  const out: Mismatch[] = []
  for (const [field, value] of Object.entries(sent)) {
    if (spec.record[field] === undefined) continue
    if (!holdsWritten(spec.name, field, sent, record[field], bodyFields[field])) out.push({ field, sent: value, got: record[field] })
  }
  const alias = plan.alias
  if (alias && alias.sent in sent && textOfHtml(sent[alias.sent]) !== textOfHtml(record[alias.field])) {
    out.push({ field: `${alias.field} (sent as ${alias.sent})`, sent: sent[alias.sent], got: record[alias.field] })
  }
  return out
}

function requireStatus(ctx: CheckContext, response: ApiResponse, allowed: (status: number) => boolean, what: string, expected: string, clause: string): void {
  if (!allowed(response.status))
    ctx.fail(`${what}: status is ${response.status}, expected ${expected} (${clause})`, { exchanges: [response.exchange], data: response.body })
}

function schemaCheck(plan: RoundTripPlan, spec: ResourceSpec): CheckDefinition {
  return defineCheck({
    id: `${area}.${spec.name}.schema`,
    clauses: ['§2', '§4.2'],
    level: 'MUST',
    area,
    title: `Every ${spec.name} the API returns while creating, reading, listing${plan.change ? ` and ${plan.change.op === 'update' ? 'updating' : 'replacing'}` : ''} one has every §2 field with its type, and a uuid id`,
    writes: plan.writes,
    async run(ctx) {
      const trip = await tripOf(ctx, plan)
      for (const s of seen(trip)) {
        const issues = validate(recordKey(spec.name), s.record)
        if (issues.length > 0) {
          const first = issues
            .slice(0, 4)
            .map((i) => `${i.path || '(root)'} ${i.message}`)
            .join('; ')
          ctx.fail(`${s.step} does not match records/${spec.name} (§2): ${first}${issues.length > 4 ? `; and ${issues.length - 4} more` : ''}`, {
            expected: `the ${spec.name} record as §2 lists it: every field present, of its type`,
            exchanges: [s.response.exchange],
            data: issues,
          })
        }
      }
      ctx.observe(
        'stepsJudged',
        seen(trip).map((s) => s.step),
      )
    },
  })
}

function roundTripCheck(plan: RoundTripPlan, spec: ResourceSpec): CheckDefinition {
  return defineCheck({
    id: `${area}.${spec.name}.roundtrip`,
    clauses: ['§4.4', '§4.2', '§2'],
    level: 'MUST',
    area,
    title: `A created ${spec.name} shows what was written (strings, nulls${spec.hasTags ? ', tags with the run tag' : ''}, dates by meaning) in the create response and in GET`,
    writes: plan.writes,
    async run(ctx) {
      const trip = await tripOf(ctx, plan)
      requireStatus(ctx, trip.got, (s) => s === 200, `GET ${spec.path}/{id} after create`, '200', '§4.2')
      for (const s of seen(trip).slice(0, 2)) {
        const found = mismatches(spec, plan, spec.create!.fields, trip.sent, s.record)
        if (found.length > 0) {
          ctx.fail(`${s.step}: ${describeMismatches(found)} (§4.4)`, {
            expected: 'the record shows every written field as written, compared by meaning',
            exchanges: [trip.created.exchange, ...(s.response === trip.created ? [] : [s.response.exchange])],
            data: found,
          })
        }
      }
    },
  })
}

function listedCheck(plan: RoundTripPlan, spec: ResourceSpec): CheckDefinition {
  return defineCheck({
    id: `${area}.${spec.name}.listed`,
    clauses: ['§4.1', '§2'],
    level: 'MUST',
    area,
    title: `A created ${spec.name} is in GET ${spec.path} (createdSince just before it), showing the same written values and createdAt as GET`,
    writes: plan.writes,
    async run(ctx) {
      const trip = await tripOf(ctx, plan)
      const { listed } = trip
      if (listed.broken) requireStatus(ctx, listed.broken, () => false, `GET ${spec.path}`, '200 with a data array', '§4.1')
      const query = listed.pages[0]?.exchange.request.url.replace(/^.*?(\?|$)/, '?') ?? ''
      ctx.observe('pagesRead', listed.pages.length)
      const record = listed.record
      if (!record) {
        return ctx.fail(
          `the created ${spec.name} ${trip.record.id} is not in GET ${spec.path}${query} (${listed.pages.length} pages read, within ${ctx.config.consistencyWindowMs} ms) (§4.1)`,
          {
            expected: 'a list returns the records of the collection, a record created a moment ago included',
            exchanges: [trip.created.exchange, ...listed.pages.slice(-2).map((p) => p.exchange)],
          },
        )
      }
      const found = mismatches(spec, plan, spec.create!.fields, trip.sent, record)
      const createdAt = trip.got.status === 200 ? trip.got.body?.createdAt : trip.record.createdAt
      if ('createdAt' in spec.record && !meansWritten('date-time', createdAt, record.createdAt)) {
        found.push({ field: 'createdAt (as GET shows it)', sent: createdAt, got: record.createdAt })
      }
      if (found.length > 0) {
        ctx.fail(`listed record: ${describeMismatches(found)} (§4.1)`, {
          expected: 'the list shows the same record as GET',
          exchanges: [trip.got.exchange, listed.pages.at(-1)!.exchange],
          data: found,
        })
      }
    },
  })
}

function changeCheck(plan: RoundTripPlan, spec: ResourceSpec): CheckDefinition {
  const op = plan.change!.op
  const bodyFields = spec[op]!.fields
  return defineCheck({
    id: `${area}.${spec.name}.${op}`,
    clauses: op === 'update' ? ['§4.2', '§4.4'] : ['§4.2', '§4.4', '§3.1'],
    level: 'MUST',
    area,
    title:
      op === 'update'
        ? `Updating a ${spec.name} answers 2xx with the record, and GET then shows the new values and keeps the fields not sent`
        : `Replacing a draft ${spec.name} with every field answers 2xx with the record, and GET then shows the new values`,
    writes: plan.writes,
    async run(ctx) {
      const trip = await tripOf(ctx, plan)
      const change = trip.change!
      requireStatus(
        ctx,
        change.response,
        (s) => s >= 200 && s < 300,
        `${op} ${spec.path}/{id}`,
        'a 2xx',
        op === 'update' ? '§4.2' : '§4.2, §3.1: a new record is a draft',
      )
      ctx.observe('method', change.response.exchange.request.method)
      if (!isObject(change.response.body)) {
        ctx.fail(`${op} response carries no record (§4.2: responses of update/replace carry the resource record)`, { exchanges: [change.response.exchange] })
      }
      requireStatus(ctx, change.got!, (s) => s === 200, `GET after ${op}`, '200', '§4.2')
      for (const s of seen(trip).filter((x) => x.response === change.response || x.response === change.got)) {
        const found = mismatches(spec, plan, bodyFields, change.sent, s.record)
        if (found.length > 0) {
          ctx.fail(`${s.step}: ${describeMismatches(found)} (§4.4)`, {
            expected: `the record shows every field the ${op} wrote`,
            exchanges: [change.response.exchange, ...(s.response === change.got ? [change.got.exchange] : [])],
            data: found,
          })
        }
      }
      if (op === 'update') {
        // §4.4 "all fields optional": a field the update does not send keeps its value.
        const kept = Object.fromEntries(Object.entries(trip.sent).filter(([f]) => !(f in change.sent)))
        const found = mismatches(spec, plan, spec.create!.fields, kept, change.got!.body)
        if (found.length > 0) {
          ctx.fail(`GET after update changed fields the update did not send: ${describeMismatches(found)} (§4.4)`, {
            expected: 'an update changes only the fields it sends (§4.4: all fields optional)',
            exchanges: [trip.created.exchange, change.response.exchange, change.got!.exchange],
            data: found,
          })
        }
      }
    },
  })
}

/** True when a date-time string carries a fraction of a second. */
const subSecond = (value: unknown): boolean => typeof value === 'string' && /T\d{2}:\d{2}:\d{2}[.,]\d*[1-9]/.test(value)

/**
 * Whether the server shows time below the second, judged on every record timestamp of the run so far: one
 * stamp landing on a whole second by chance (1 in 1000 at millisecond precision) says nothing.
 */
function showsSubSecond(ctx: CheckContext): boolean {
  for (const exchange of ctx.session.exchanges) {
    const body = exchange.response?.body as { createdAt?: unknown; updatedAt?: unknown; data?: { createdAt?: unknown }[] } | undefined
    if (!body || typeof body !== 'object') continue
    if (subSecond(body.createdAt) || subSecond(body.updatedAt)) return true
    if (Array.isArray(body.data) && body.data.some((r) => subSecond(r?.createdAt))) return true
  }
  return false
}

function timestampsCheck(plan: RoundTripPlan, spec: ResourceSpec): CheckDefinition {
  const op = plan.change!.op
  return defineCheck({
    id: `${area}.${spec.name}.timestamps`,
    clauses: ['§2', '§4.1', '§9.2'],
    level: 'MUST',
    area,
    title: `A ${spec.name}'s createdAt never changes, and its updatedAt moves forward when it is ${op === 'update' ? 'updated' : 'replaced'}`,
    writes: plan.writes,
    async run(ctx) {
      const trip = await tripOf(ctx, plan)
      const createdAt = trip.record.createdAt
      if (typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt))) {
        ctx.fail(`create response createdAt is ${JSON.stringify(createdAt)}, expected a date-time (§2)`, { exchanges: [trip.created.exchange] })
      }
      for (const s of seen(trip)) {
        if (!meansWritten('date-time', createdAt, s.record.createdAt)) {
          ctx.fail(`${s.step} createdAt is ${JSON.stringify(s.record.createdAt)}, the create response said ${createdAt} (§2)`, {
            expected: 'createdAt is the creation time and never changes',
            exchanges: [trip.created.exchange, s.response.exchange],
          })
        }
      }
      const before = trip.got.status === 200 ? trip.got.body : trip.record
      if (Date.parse(before.updatedAt) < Date.parse(createdAt)) {
        ctx.fail(`updatedAt ${before.updatedAt} is before createdAt ${createdAt} (§2)`, { exchanges: [trip.got.exchange] })
      }
      const change = trip.change!
      const gotAfter = change.got
      if (!change.response.ok || gotAfter?.status !== 200) return ctx.skip(`the ${op} was not accepted; ${area}.${spec.name}.${op} reports it`)
      const after = change.response.body?.updatedAt
      const afterMs = Date.parse(after)
      const beforeMs = Date.parse(before.updatedAt)
      ctx.observe('updatedAt', { before: before.updatedAt, after })
      // At a precision of whole seconds, a change within the same second may keep the same stamp.
      const sameSecondAllowed = !subSecond(before.updatedAt) && !subSecond(after) && !showsSubSecond(ctx)
      if (!(afterMs > beforeMs || (afterMs === beforeMs && sameSecondAllowed))) {
        ctx.fail(`${op} response updatedAt is ${JSON.stringify(after)}, not after ${before.updatedAt} (§2, §4.1 updatedSince)`, {
          expected: 'updatedAt moves forward on every change, so that updatedSince finds the record (§4.1, §9.2)',
          exchanges: [trip.got.exchange, change.response.exchange],
        })
      }
      if (!(Date.parse(gotAfter.body?.updatedAt) >= afterMs)) {
        ctx.fail(`GET after ${op} updatedAt is ${JSON.stringify(gotAfter.body?.updatedAt)}, before the ${op} response's ${after} (§2)`, {
          exchanges: [change.response.exchange, gotAfter.exchange],
        })
      }
    },
  })
}

function writeOnlyCheck(plan: RoundTripPlan, spec: ResourceSpec): CheckDefinition {
  const fields = Object.keys(spec.writeOnly)
  return defineCheck({
    id: `${area}.${spec.name}.write-only-hidden`,
    clauses: ['§2'],
    level: 'MUST',
    area,
    title: `The ${spec.name} record never shows the fields §2 calls writable but not in the record (${fields.join(', ')})`,
    writes: plan.writes,
    async run(ctx) {
      const trip = await tripOf(ctx, plan)
      const written = fields.filter((f) => f in trip.sent || (trip.change !== undefined && f in trip.change.sent))
      if (written.length === 0) ctx.skip('the round trip wrote none of them')
      for (const s of seen(trip)) {
        const shown = writeOnlyShown(spec.name, s.record)
        if (shown.length > 0) {
          ctx.fail(`${s.step} shows ${shown.join(', ')}: writable but not in the ${spec.name} record (§2)`, {
            expected: `${fields.join(', ')}: writable but not in the record (§2)`,
            exchanges: [s.response.exchange],
          })
        }
      }
    },
  })
}

function deleteCheck(plan: RoundTripPlan, spec: ResourceSpec): CheckDefinition {
  const bin = spec.deleteMeans === 'recycle-bin'
  return defineCheck({
    id: `${area}.${spec.name}.delete`,
    clauses: bin ? ['§4.2', '§1.6', '§7.6'] : ['§4.2', '§7.6'],
    level: 'MUST',
    area,
    title: bin
      ? `Moving a ${spec.name} to the recycle bin answers 2xx, and GET then answers 404`
      : `Deleting a ${spec.name}${spec.name === 'quotation' ? ' draft' : ''} answers 2xx, and GET then answers 404`,
    writes: plan.writes,
    async run(ctx) {
      const trip = await tripOf(ctx, plan)
      const deleted = trip.deleted!
      requireStatus(ctx, deleted.response, (s) => s >= 200 && s < 300, `DELETE ${spec.path}/{id}`, 'a 2xx', '§4.2')
      ctx.observe('deleteStatus', deleted.response.status)
      requireStatus(
        ctx,
        deleted.got!,
        (s) => s === 404,
        `GET after delete`,
        '404',
        bin ? '§1.6, §7.6: a record in the recycle bin is gone from the API' : '§7.6',
      )
    },
  })
}

/** The checks of one resource's round trip. */
export function roundTripChecks(plan: RoundTripPlan): CheckDefinition[] {
  const spec = RESOURCES[plan.resource]
  const out = [schemaCheck(plan, spec), roundTripCheck(plan, spec), listedCheck(plan, spec)]
  if (plan.change) out.push(changeCheck(plan, spec))
  if (plan.change && 'updatedAt' in spec.record) out.push(timestampsCheck(plan, spec))
  if (Object.keys(spec.writeOnly).length > 0) out.push(writeOnlyCheck(plan, spec))
  if (spec.ops.delete) out.push(deleteCheck(plan, spec))
  return out
}
