// §2 types some written text `string`, not `string|null` (a case's subject and description, the names of accounts,
// deals and products, a lead's fullName, the titles of quotations and tasks, a product's unit), and §4.4 lets a
// create and an update or replace send it; "" is a string. A write that sends "" is refused (400: a server may hold
// text to be non-blank, a required name above all) or keeps "": a server that turns blank text into null (a body
// binder, a serialiser or ORM setting, a database where '' is NULL) breaks the record's type (§2 "may be null where
// the type says so"). §4.1 grants "" as null only to email fields.
//
// One check per row of the table: one create with every blank the create takes, one change with every blank the
// change takes, one GET. A refusal does not say which blank it is about, so where the blanks include a field the
// create requires, a refused write is sent again with that field filled, and the other blanks are still judged
// (a binder may refuse a blank required name and null a blank optional unit). Each record is in the ledger from its
// create on; one whose label field (a lead's fullName, a deal's name, a quotation's title) holds "" can be found by
// the ledger's journal after a crash, not by the sweep, which reads the label.
//
// Left out: currency, sku and a case's priority on update are codes, not text ("" names no currency, SKU or priority:
// what a server makes of it is the validation area's question); the titles of invoices and activities, a comment's html and a message's text,
// because each such write leaves a record the API cannot delete, and a message goes out to a customer (§1.6).
import { defineCheck, holdsWritten, isObject, itemPath, postCreate, updateRecord, replaceRecord, runLabel, RESOURCES } from '../../src/checks/index.ts'
import type { AnyRecord, ApiResponse, CheckContext, CheckDefinition, ResourceName } from '../../src/checks/index.ts'
import { createNeeds, minimalCreate, REPLACE_BODIES } from '../shared/bodies.ts'

const area = 'records'

export interface EmptyTextRow {
  resource: ResourceName
  /** Fields typed `string` (not null) in the §2 record and in the §4.4 create and change bodies. */
  fields: string[]
  /** The id's last part: `empty-text`, or `empty-<field>` for the case, whose description check came first (its id is frozen). */
  property?: string
  /** What else the change writes. */
  alsoOnChange?: AnyRecord
}

export const EMPTY_TEXT_ROWS: EmptyTextRow[] = [
  { resource: 'account', fields: ['name'] },
  { resource: 'case', fields: ['description'], property: 'empty-description' },
  { resource: 'case', fields: ['subject'], property: 'empty-subject' },
  { resource: 'lead', fields: ['fullName'] },
  { resource: 'opportunity', fields: ['name'] },
  { resource: 'quotation', fields: ['title'] },
  { resource: 'task', fields: ['title'] },
  // Archived: the product the API cannot delete is at least out of use after the run.
  { resource: 'product', fields: ['name', 'unit'], alsoOnChange: { status: 'archived' } },
]

const blanks = (fields: string[]): AnyRecord => Object.fromEntries(fields.map((f) => [f, '']))
const named = (fields: string[]): string => fields.join(' and ')

/** Fails unless the record `res` holds "" in every field of `fields`. An answer with no record is the records area's to judge. */
function expectEmptyKept(ctx: CheckContext, resource: ResourceName, res: ApiResponse, fields: string[], what: string): void {
  if (!isObject(res.body)) return
  const record = res.body
  // The records area's one rule for "holds what was written": "" reads as null only for an email field (§4.1).
  const lost = fields.filter((f) => !holdsWritten(resource, f, { [f]: '' }, record[f]))
  if (lost.length === 0) return
  const shown = lost.map((f) => `${f} ${record[f] === undefined ? '(absent)' : JSON.stringify(record[f])}`).join(', ')
  ctx.fail(`${what} holds ${shown} after ${named(lost)} "" ${lost.length > 1 ? 'were' : 'was'} written (§2: a string, never null)`, {
    expected: `${named(lost)} "" (a refusal, 400, is allowed instead)`,
    exchanges: [res.exchange],
  })
}

/**
 * Sends `write` with every field of the row blank. A 400 may be about a blank the create requires only: then the
 * write goes once more with those filled from `filled` and the others blank, where there are others, or where the
 * record must exist (a create the change needs). Answers the accepted response and the fields it sent blank.
 */
async function sendBlanks(
  ctx: CheckContext,
  row: EmptyTextRow,
  what: string,
  filled: AnyRecord,
  mustExist: boolean,
  write: (body: AnyRecord) => Promise<ApiResponse>,
): Promise<{ response: ApiResponse; fields: string[] } | undefined> {
  const required = RESOURCES[row.resource].create!.required
  const optional = row.fields.filter((f) => !required.includes(f))
  let sent = row.fields
  let response = await write(blanks(sent))
  if (response.status === 400) {
    ctx.note(`the server refuses ${what} with ${named(sent)} "" (400): allowed, text may be held to be non-blank`)
    if (optional.length === sent.length || (optional.length === 0 && !mustExist)) return undefined
    sent = optional
    const fill = Object.fromEntries(row.fields.filter((f) => required.includes(f)).map((f) => [f, filled[f]]))
    response = await write({ ...fill, ...blanks(sent) })
    if (response.status === 400 && sent.length > 0) {
      ctx.note(`the server refuses ${what} with ${named(sent)} "" and ${named(Object.keys(fill))} filled too (400): allowed`)
      return undefined
    }
  }
  if (!response.ok) {
    const body = sent.length > 0 ? `${named(sent)} ""` : `${named(row.fields)} filled`
    ctx.fail(`${what} with ${body} answered ${response.status}, expected ${sent.length > 0 ? '2xx or 400' : 'a 2xx for a valid body'}`, {
      exchanges: [response.exchange],
    })
  }
  return { response, fields: sent }
}

function emptyTextCheck(row: EmptyTextRow): CheckDefinition {
  const spec = RESOURCES[row.resource]
  const op = spec.update ? 'update' : 'replace'
  return defineCheck({
    id: `${area}.${row.resource}.${row.property ?? 'empty-text'}`,
    clauses: ['§2', '§4.4'],
    level: 'MUST',
    area,
    title: `A ${row.resource} created and ${op}d with ${named(row.fields)} "" (typed string, not null) is refused (400) or comes back with "", never null`,
    writes: createNeeds(row.resource),
    async run(ctx) {
      const base = minimalCreate(ctx, row.resource, runLabel(ctx, `empty ${named(row.fields)}`))
      const created = await sendBlanks(ctx, row, `POST ${spec.path}`, base, true, (blank) => postCreate(ctx, row.resource, { ...base, ...blank }))
      if (!created) return
      const shownId: unknown = created.response.body?.id
      if (typeof shownId !== 'string')
        return ctx.fail(`POST ${spec.path} answered no record id (§4.2: create returns the record)`, { exchanges: [created.response.exchange] })
      const id = shownId
      const path = itemPath(row.resource, id)
      expectEmptyKept(ctx, row.resource, created.response, created.fields, `the created ${row.resource}`)
      const current: AnyRecord = isObject(created.response.body) ? created.response.body : {}
      const changed = await sendBlanks(ctx, row, `${op} ${spec.path}/{id}`, base, false, (blank) =>
        op === 'update'
          ? updateRecord(ctx, row.resource, id, { ...row.alsoOnChange, ...blank })
          : replaceRecord(ctx, row.resource, id, { ...REPLACE_BODIES[row.resource]!(current), ...row.alsoOnChange, ...blank }),
      )
      if (changed) expectEmptyKept(ctx, row.resource, changed.response, changed.fields, `the ${op}d ${row.resource}`)
      // An accepted change wrote every field of the row, blank or filled; a refused one left the create's blanks.
      const held = changed ? changed.fields : created.fields
      if (held.length === 0) return
      const read = await ctx.api.get(path)
      if (read.status === 200) expectEmptyKept(ctx, row.resource, read, held, `GET ${path}`)
    },
  })
}

export const emptyTextChecks: CheckDefinition[] = EMPTY_TEXT_ROWS.map(emptyTextCheck)
