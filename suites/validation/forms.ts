// Every form of a wrong value, not the first one (§2, §4.4, §7.2, §7.3), generated from the write bodies of
// RESOURCES: each object-typed field (custom, address, fields, options, recurrence) and each line item given an
// array, a string and a number; each date and date-time input given a word, an impossible date, a number and a
// day the month does not have; and one body with several defects at once, whose details must name each field
// (§7.2 "lists each field to fix"). An update or replace probe must also leave its record as it was.
import { createRecord, defineCheck, itemPath, parseFieldType, refusalProblem, writeBodies, RESOURCES } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, ApiResponse, AnyRecord, BodySpec } from '../../src/checks/index.ts'
import { createdDespite, listCaughtUp } from '../shared/created-despite.ts'
import { exclusive, recordLock } from '../shared/exclusive.ts'
import { sentInvoiceWithBalance } from '../shared/fixtures.ts'
import { changedFields, diffOf } from '../shared/record-diff.ts'
import { missingRequired, outsideEnums, wrongTypes } from './defects.ts'
import { createBody } from './bases.ts'
import { expectRefusals, foldedProbes, probedFields, trackAccepted, type Probe } from './judge.ts'
import { operation, sender, writesOf, type Sender, type Subject } from './subjects.ts'

const area = 'validation'

/** Why an answer is not what a probe asks for, or undefined when it is. */
type Judge = (res: ApiResponse, field: string | undefined) => string | undefined

const set = (valid: AnyRecord, field: string, value: unknown): AnyRecord => ({ ...valid, [field]: value })

/**
 * After refused creates, no record holds their label (§7.3: the body is refused, not stored). A record of the
 * same collection is made first and waited for, so that a list that shows writes late is not taken for an absence.
 */
async function nothingCreated(ctx: CheckContext, s: Subject, to: Sender): Promise<void> {
  if (to.label === undefined) return
  if (!(await listCaughtUp(ctx, s.resource))) ctx.note('no control record was listed: the absence below was judged on a list that may lag')
  const seen = await createdDespite(ctx, s.resource, { body: to.valid, label: to.label, references: [], lookup: NEWEST }, undefined)
  if (seen.created.length > 0) {
    ctx.fail(
      `every body was refused, but ${RESOURCES[s.resource].path} lists ${seen.created.length} record(s) made from them: ${seen.created.join(', ')} (§7.3)`,
      {
        expected: 'a body refused as invalid creates nothing',
        exchanges: [seen.response.exchange],
      },
    )
  }
}

const NEWEST = { limit: 100, sort: 'createdAt', order: 'desc' }

/**
 * Sends the probes. For an update or replace, the fields they sent must then read as they were when the run made
 * the record (every write to it is refused on a conformant server); only those fields: others may move with time
 * (a case's slaState). For a create with `checkCreated` (records the run can delete: the control is one), no
 * record may have been made all the same.
 */
async function refusedAndUnchanged(
  ctx: CheckContext,
  s: Subject,
  to: Sender,
  probes: Probe[],
  judge: Judge = (res, field) => refusalProblem(res.status, res.body, field),
  tolerated: () => string[] = () => [],
  checkCreated = false,
): Promise<void> {
  await expectRefusals(ctx, probes, { clause: '§7.3', created: s.op === 'create' ? s.resource : undefined, judge })
  if (checkCreated && RESOURCES[s.resource].ops.delete) await nothingCreated(ctx, s, to)
  if (to.record === undefined) return
  const path = itemPath(s.resource, String(to.record.id))
  const after = await ctx.api.get(path)
  if (after.status !== 200) return // the records area judges reads
  const probed = [...new Set(probes.flatMap(probedFields).filter((f): f is string => f !== undefined && f in to.record!))]
  const pick = (r: AnyRecord) => Object.fromEntries(probed.map((f) => [f, r?.[f]]))
  const changed = changedFields(pick(to.record), pick(after.body), tolerated())
  if (changed.length > 0) {
    ctx.fail(`the refused ${s.op}s changed the ${s.resource}: ${changed.join(', ')} (§7.3)`, {
      expected: 'a body refused as invalid changes nothing',
      exchanges: [after.exchange],
      data: diffOf(to.record, after.body, changed),
    })
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Object-typed fields (§2 "custom is an object", §4.4 `object`, `object[]`; inner shapes not shown).

const NOT_OBJECTS: unknown[] = [['crmconf'], 'crmconf', 42]

const objectFields = (body: BodySpec) =>
  Object.entries(body.fields).flatMap(([field, type]) => {
    const { base } = parseFieldType(type)
    return base === 'object' || base === 'object[]' ? [{ field, list: base === 'object[]' }] : []
  })

/** The §7.3 refusal whose details name the field or, for a line item, the field or the item (`items[0]`). */
function namesFieldOrItem(res: ApiResponse, field: string | undefined): string | undefined {
  const problem = refusalProblem(res.status, res.body, field)
  if (problem === undefined || field === undefined) return problem
  return refusalProblem(res.status, res.body, `${field}.0`) === undefined ? undefined : problem
}

function objectFormsCheck(s: Subject): CheckDefinition | undefined {
  const fields = objectFields(s.body)
  if (fields.length === 0) return undefined
  const shown = fields.map((f) => (f.list ? `each of ${f.field}` : f.field)).join(', ')
  return defineCheck({
    id: `${area}.${s.resource}.${s.op}.object-forms`,
    clauses: ['§4.4', '§2', '§7.3', '§7.2'],
    level: 'MUST',
    area,
    title: `${operation(s)} with ${shown} given an array, a string or a number (not an object) answers 400 invalid_request naming the field${s.op !== 'create' ? ', and changes nothing' : RESOURCES[s.resource].ops.delete ? ', and creates nothing' : ''}`,
    writes: writesOf(s.resource),
    async run(ctx) {
      const to = await sender(ctx, s)
      // One body per form, every object field given it at once: the details name each (§7.2).
      const defects = fields.flatMap(({ field, list }) =>
        NOT_OBJECTS.map((value) => {
          const sent = list ? [value] : value
          return { label: `${field} given ${JSON.stringify(sent)}`, field, apply: (body: AnyRecord) => set(body, field, sent) }
        }),
      )
      const probes: Probe[] = foldedProbes(defects, to.valid, to.send)
      await refusedAndUnchanged(ctx, s, to, probes, namesFieldOrItem, undefined, true)
    },
  })
}

// ---------------------------------------------------------------------------------------------------------------
// Dates (§2 `date`, `date-time`; §4.4 validUntil, issueDate, paidOn are strings "returned as date").

interface DateField {
  field: string
  kind: 'date' | 'date-time'
  /** Typed string in the body and date in the record: a server may read other forms, if it returns a date. */
  text: boolean
}

function dateFields(s: Subject): DateField[] {
  const record = RESOURCES[s.resource].record
  return Object.entries(s.body.fields).flatMap(([field, type]): DateField[] => {
    const { base } = parseFieldType(type)
    if (base === 'date' || base === 'date-time') return [{ field, kind: base, text: false }]
    const recordType = record[field]
    return base === 'string' && recordType !== undefined && parseFieldType(recordType).base === 'date' ? [{ field, kind: 'date', text: true }] : []
  })
}

/**
 * Not a date: a word, month 13 and day 45, a number, and a day February does not have. Only the word may be read
 * as a date (by a string field "returned as date"); no reading makes a date of the others.
 */
function notDates(kind: DateField['kind']): { value: unknown; readable: boolean }[] {
  const time = kind === 'date-time' ? 'T10:00:00Z' : ''
  return [
    { value: 'tomorrow', readable: true },
    { value: `2026-13-45${time}`, readable: false },
    { value: 20260101, readable: false },
    { value: `2026-02-30${time}`, readable: false },
  ]
}

/** A `YYYY-MM-DD` that names a day of the calendar. */
export function isCalendarDate(value: unknown): boolean {
  const m = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null
  if (!m) return false
  const day = new Date(0)
  day.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  return day.toISOString().slice(0, 10) === value
}

function dateFormsCheck(s: Subject): CheckDefinition | undefined {
  const fields = dateFields(s)
  if (fields.length === 0) return undefined
  const text = fields.filter((f) => f.text).map((f) => f.field)
  return defineCheck({
    id: `${area}.${s.resource}.${s.op}.date-forms`,
    clauses: ['§4.4', '§2', '§7.3', '§7.2'],
    level: 'MUST',
    area,
    title:
      `${operation(s)} with ${fields.map((f) => f.field).join(', ')} given "tomorrow", "2026-13-45", a number or "2026-02-30" answers 400 invalid_request naming the field` +
      (text.length > 0 ? ` (${text.join(', ')}, a string returned as a date, may read "tomorrow" as a date it then holds)` : ''),
    writes: writesOf(s.resource),
    async run(ctx) {
      let to = await sender(ctx, s)
      let lock: string | undefined
      if (s.resource === 'payment') {
        // A payment against a draft may be refused for the draft before its date is read: use a sent invoice, and
        // take the invoice's turn, since a server that reads "tomorrow" as a date records a payment of 1 sen.
        const invoice = await sentInvoiceWithBalance(ctx, 2)
        to = { ...to, valid: { ...to.valid, invoiceId: invoice.id } }
        lock = recordLock('invoice', invoice.id)
      }
      const lenient = new Map<ApiResponse, DateField>()
      // A word a text field may read as a date goes alone; the values no reading makes a date go together (§7.2).
      const mayRead = (f: DateField, readable: boolean) => f.text && readable
      const alone: Probe[] = fields.flatMap((f) =>
        notDates(f.kind)
          .filter(({ readable }) => mayRead(f, readable))
          .map(({ value }) => ({
            label: `${f.field} given ${JSON.stringify(value)}`,
            field: f.field,
            send: async () => {
              const res = await to.send(set(to.valid, f.field, value))
              lenient.set(res, f)
              return res
            },
          })),
      )
      const together = fields.flatMap((f) =>
        notDates(f.kind)
          .filter(({ readable }) => !mayRead(f, readable))
          .map(({ value }) => ({ label: `${f.field} given ${JSON.stringify(value)}`, field: f.field, apply: (body: AnyRecord) => set(body, f.field, value) })),
      )
      const probes: Probe[] = [...foldedProbes(together, to.valid, (body) => to.send(body)), ...alone]
      const accepted: string[] = []
      const judge = (res: ApiResponse, field: string | undefined): string | undefined => {
        const f = lenient.get(res)
        if (!(f && res.ok)) return refusalProblem(res.status, res.body, field)
        const stored = res.body?.[f.field]
        if (!isCalendarDate(stored))
          return `accepted with ${res.status}, and the record's ${f.field} is ${JSON.stringify(stored)}, not a date (§2, §4.4 "returned as date")`
        accepted.push(f.field)
        ctx.observe(`${f.field}.readAsDate`, stored)
        return undefined
      }
      const run = () => refusedAndUnchanged(ctx, s, to, probes, judge, () => accepted)
      await (lock === undefined ? run() : exclusive(ctx.session, lock, run))
    },
  })
}

/**
 * ISO 8601 date-times with offsets other than Z (§2 "date-time = ISO 8601 timestamp string"): what a client in
 * Kuala Lumpur or New York sends. Reminders are the earlier instant (a server may require remindAt ≤ dueAt).
 */
const OFFSET_TIMES: Record<string, string> = { remind: '2027-03-01T04:30:00-05:00', other: '2027-03-01T18:00:00+08:00' }

function offsetsCheck(s: Subject): CheckDefinition | undefined {
  const fields = dateFields(s).filter((f) => f.kind === 'date-time')
  // Records the run can delete: a legal form is accepted, so each probe makes a record.
  if (s.op !== 'create' || fields.length === 0 || !RESOURCES[s.resource].ops.delete) return undefined
  const sent = Object.fromEntries(fields.map((f) => [f.field, OFFSET_TIMES[/^remind/.test(f.field) ? 'remind' : 'other']!]))
  return defineCheck({
    id: `${area}.${s.resource}.${s.op}.date-time-offsets`,
    clauses: ['§2', '§4.4'],
    level: 'MUST',
    area,
    title: `${operation(s)} accepts ${fields.map((f) => f.field).join(', ')} with offsets other than Z (+08:00, -05:00), and the record holds the same instants`,
    writes: 'safe',
    async run(ctx) {
      const { response } = await createRecord(ctx, s.resource, { ...createBody(ctx, s.resource), ...sent }, { validate: false })
      const moved = Object.entries(sent).filter(([f, v]) => Date.parse(String(response.body?.[f])) !== Date.parse(v))
      if (moved.length > 0) {
        ctx.fail(
          `the record does not hold the instants sent: ${moved.map(([f, v]) => `${f} sent ${v}, got ${JSON.stringify(response.body?.[f])}`).join('; ')} (§2)`,
          {
            expected: 'the same instant, in any ISO 8601 form',
            exchanges: [response.exchange],
          },
        )
      }
      ctx.observe('returned', Object.fromEntries(Object.keys(sent).map((f) => [f, response.body?.[f]])))
    },
  })
}

// ---------------------------------------------------------------------------------------------------------------
// Several defects in one body (§7.2 "details … lists each field to fix").

/** Up to three defects on three fields: a required one left out, a wrong type, a value outside a listed enum. */
function severalDefects(body: BodySpec) {
  const pool = [...missingRequired(body).slice(0, 1), ...outsideEnums(body).slice(0, 1), ...wrongTypes(body)]
  const chosen: typeof pool = []
  for (const d of pool) if (chosen.length < 3 && !chosen.some((c) => c.field === d.field)) chosen.push(d)
  return chosen
}

function severalDefectsCheck(s: Subject): CheckDefinition | undefined {
  const defects = severalDefects(s.body)
  if (defects.length < 2) return undefined
  const fields = defects.map((d) => d.field)
  return defineCheck({
    id: `${area}.${s.resource}.${s.op}.several-defects`,
    clauses: ['§7.2', '§7.3', '§4.4'],
    level: 'MUST',
    area,
    title: `${operation(s)} with ${defects.map((d) => d.label).join(', ')} at once answers 400 invalid_request whose details name each of ${fields.join(', ')}`,
    writes: writesOf(s.resource),
    async run(ctx) {
      const to = await sender(ctx, s)
      const body = defects.reduce((b, d) => d.apply(b), to.valid)
      const res = await to.send(body)
      if (s.op === 'create') trackAccepted(ctx, s.resource, res)
      const problem = refusalProblem(res.status, res.body, undefined)
      if (problem) ctx.fail(`a body with ${fields.length} invalid fields: ${problem} (§7.3)`, { exchanges: [res.exchange], data: res.body })
      const unnamed = fields.filter((f) => refusalProblem(res.status, res.body, f) !== undefined)
      ctx.observe('details', Array.isArray(res.body?.error?.details) ? res.body.error.details.length : 0)
      if (unnamed.length > 0) {
        ctx.fail(
          `the details of a body with ${fields.length} invalid fields (${fields.join(', ')}) do not name ${unnamed.join(', ')} (§7.2 "lists each field to fix")`,
          {
            expected: `a details entry naming each of ${fields.join(', ')}`,
            exchanges: [res.exchange],
            data: { defects: defects.map((d) => d.label), details: res.body?.error?.details },
          },
        )
      }
    },
  })
}

const subjects: Subject[] = writeBodies().map(({ resource, op, body }) => ({ resource, op, body }))

export const formChecks: CheckDefinition[] = [objectFormsCheck, dateFormsCheck, offsetsCheck, severalDefectsCheck].flatMap((make) =>
  subjects.map(make).filter((c): c is CheckDefinition => c !== undefined),
)
