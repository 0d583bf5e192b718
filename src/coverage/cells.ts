// The requirement matrix's cells: for each MUST and SHOULD statement of the clause registry, the axes along
// which an implementation can break it, read from the spec's own words (issue 25). Where the spec is a table
// (§2 records, §4.2 operations, §4.3 filters, §4.4 bodies, §5.4 scopes) the cells are generated from
// src/spec/resources.ts; the other axes are the spec's own lists, named once here with their clause.
import { STATEMENTS } from '../spec/clauses.ts'
import {
  LIST_PARAMETERS,
  RESOURCES,
  RESOURCE_LIST,
  parseFieldType,
  writeBodies,
  type FilterSpec,
  type OpName,
  type ParsedFieldType,
  type ResourceSpec,
} from '../spec/resources.ts'

/** §5.5 "a missing key or a key that is no longer valid": the forms of it a client sends (the rows of suites/auth/credentials.ts). */
export const INVALID_KEY_KINDS = [
  'missing-key',
  'bearer-without-key',
  'basic-scheme',
  'key-under-basic-scheme',
  'wrong-prefix',
  'unknown-secret',
  'garbage-key',
  'revoked-key',
] as const

export interface Cell {
  /** `<family>:<axis values joined by '/'>`, stable and matched by the judge rules' globs. */
  id: string
  /** The clause registry's statement id (`§4.3/filters`). */
  statement: string
  family: string
  axes: Record<string, string>
}

function cell(statement: string, family: string, axes: Record<string, string>): Cell {
  return { id: `${family}:${Object.values(axes).join('/')}`, statement, family, axes }
}

const listed = (r: ResourceSpec) => r.ops.list
const RECORD_OPS: OpName[] = ['list', 'get', 'create', 'update', 'replace']
const ID_OPS: OpName[] = ['get', 'update', 'replace', 'delete']
const WRITE_OPS: OpName[] = ['create', 'update', 'replace', 'delete']

/** §4.3 filters, as the matrix's axes: `uuid`, exact/cased strings, enums (§3 rule 3). */
function valueForms(f: FilterSpec): string[] {
  // A uuid filter can read the wrong column: given an id the record holds in another field, it must not list it.
  if (f.kind === 'uuid') return ['match', 'unknown-id', 'other-field']
  if (f.kind === 'enum') return [...f.values!.map((v) => `value=${v}`), 'unlisted']
  // An exact string filter can be answered by a LIKE/ILIKE, a prefix match or an unescaped pattern.
  const forms = ['match', 'no-match', 'near-miss', 'pattern-characters', 'quotes']
  if (f.match === 'lowercase' || f.match === 'uppercase') forms.push('other-case-stored')
  else forms.push('case-variant')
  return forms
}

/** §3 rule 3: the enum filters whose values are "only the values listed above". */
const STATE_ENUM_FILTERS = new Set(['opportunity.status', 'task.status', 'product.status', 'article.visibility'])

function filterCells(): Cell[] {
  const out: Cell[] = []
  for (const r of RESOURCE_LIST.filter(listed)) {
    for (const f of r.filters) {
      const axes = { resource: r.name, filter: f.param }
      for (const page of ['first', 'later', 'last']) out.push(cell('§4.3/filters', 'filter-page', { ...axes, page }))
      for (const form of valueForms(f)) {
        const statement = STATE_ENUM_FILTERS.has(`${r.name}.${f.param}`) ? '§3.3/enum-filters' : '§4.3/filters'
        out.push(cell(statement, 'filter-value', { ...axes, form }))
      }
      for (const sort of LIST_PARAMETERS.sort.values)
        for (const order of LIST_PARAMETERS.order.values) out.push(cell('§4.3/filters', 'filter-sort', { ...axes, sort, order }))
      for (const since of ['createdSince', 'updatedSince']) out.push(cell('§4.3/filters', 'filter-since', { ...axes, since }))
    }
    for (let i = 0; i < r.filters.length; i++)
      for (let j = i + 1; j < r.filters.length; j++)
        out.push(cell('§4.3/filters', 'filter-pair', { resource: r.name, pair: `${r.filters[i].param}+${r.filters[j].param}` }))
  }
  return out
}

/** §4.1 and §8: the limit values a page size can be asked with, and the list rules on every collection. */
function listCells(): Cell[] {
  const { min, max, default: dflt } = LIST_PARAMETERS.limit
  const out: Cell[] = []
  for (const value of [`${min}`, `default-${dflt}`, `${max}`, `${max}-on-more-than-${max}`, `${min - 1}`, `${max + 1}`, 'negative', 'non-integer'])
    out.push(cell('§4.1/page-size', 'limit', { value }))
  for (const r of RESOURCE_LIST.filter(listed)) {
    out.push(cell('§4.1/page-size', 'limit-collection', { resource: r.name }))
    out.push(cell('§2/list-envelope', 'envelope', { resource: r.name }))
    out.push(cell('§4.1/cursor', 'cursor-walk', { resource: r.name }))
    for (const sort of LIST_PARAMETERS.sort.values)
      for (const order of LIST_PARAMETERS.order.values) out.push(cell('§4.1/sort-order', 'sort-collection', { resource: r.name, sort, order }))
    for (const since of ['createdSince', 'updatedSince']) out.push(cell('§4.1/since', 'since-collection', { resource: r.name, since }))
  }
  for (const aspect of ['walk-complete', 'string-on-every-page', 'last-page', 'garbage-refused']) out.push(cell('§4.1/cursor', 'cursor', { aspect }))
  for (const sort of LIST_PARAMETERS.sort.values)
    for (const order of LIST_PARAMETERS.order.values) for (const page of ['first', 'later']) out.push(cell('§4.1/sort-order', 'sort', { sort, order, page }))
  for (const [sort, order] of [
    ['default', 'default'],
    ['unknown', 'default'],
    ['default', 'unknown'],
  ])
    out.push(cell('§4.1/sort-order', 'sort', { sort, order, page: 'first' }))
  // A since value is a date-time: the same instant may be written with Z, an offset or more digits (§2 "ISO 8601").
  for (const since of ['createdSince', 'updatedSince'])
    for (const form of ['utc-z', 'offset', 'fraction-digits', 'at-the-bound', 'not-a-date', 'with-later-page'])
      out.push(cell(since === 'createdSince' ? '§4.1/since' : '§9.2/incremental-sync', 'since', { since, form }))
  return out
}

/** §2, §4.1 and §4.2: every resource on every operation that returns its record or takes its id. */
function recordCells(): Cell[] {
  const out: Cell[] = []
  for (const r of RESOURCE_LIST) {
    for (const op of RECORD_OPS.filter((o) => r.ops[o])) out.push(cell('§2/fields-present', 'record', { resource: r.name, op }))
    for (const field of Object.keys(r.writeOnly)) out.push(cell('§2/write-only-hidden', 'write-only', { resource: r.name, field }))
    for (const op of (Object.keys(r.ops) as OpName[]).filter((o) => r.ops[o])) out.push(cell('§4.2/operations', 'operation', { resource: r.name, op }))
    if (r.ops.get) out.push(cell('§4.1/get-by-id', 'get', { resource: r.name }))
    // §4.2 "No create, update or delete exists … beyond what the table lists", per HTTP method a server could route.
    const absent: [string, boolean][] = [
      ['post', !r.ops.create],
      ['patch', !r.ops.update],
      ['put', !r.ops.update && !r.ops.replace],
      ['delete', !r.ops.delete],
    ]
    for (const [method, missing] of absent) if (missing) out.push(cell('§4.2/no-other-writes', 'absent-method', { resource: r.name, method }))
    for (const op of ID_OPS.filter((o) => r.ops[o])) {
      out.push(cell('§5.7/404', 'unknown-id', { resource: r.name, op }))
      out.push(cell('§7.6/404', 'unknown-id-envelope', { resource: r.name, op }))
    }
  }
  return out
}

/** §4.4 body fields the record shows under another name: a comment's `html` and a message's `text` are its `body`. */
const SHOWN_AS: Readonly<Record<string, string>> = { 'comment.html': 'body', 'message.text': 'body' }

/** §2: a body field of type `string` landing in a record field typed `string`, not null: "" written is refused or kept, never null. */
function writesText(resource: ResourceSpec, field: string, type: ParsedFieldType): boolean {
  return type.base === 'string' && !type.nullable && resource.record[SHOWN_AS[`${resource.name}.${field}`] ?? field] === 'string'
}

/** §4.1, §4.4 and §7.2/§7.3: every field of every write body, each way a value can be wrong, one defect and several. */
function bodyCells(): Cell[] {
  const out: Cell[] = []
  for (const { resource, op, body } of writeBodies()) {
    for (const [field, type] of Object.entries(body.fields)) {
      const t = parseFieldType(type)
      const axes = { resource, op, field }
      if (body.required.includes(field)) out.push(cell('§4.1/required-fields', 'body-missing', axes))
      else out.push(cell('§4.4/bodies', 'body-optional', axes))
      out.push(cell('§4.4/bodies', 'body-type', axes))
      if (!t.nullable) out.push(cell('§4.4/bodies', 'body-null', axes))
      if (t.base === 'enum') out.push(cell('§4.4/bodies', 'body-enum', axes))
      if (t.base === 'email') for (const value of ['address', 'null', 'empty']) out.push(cell('§4.1/email-fields', 'email', { ...axes, value }))
      if (writesText(RESOURCES[resource], field, t)) out.push(cell('§2/fields-present', 'empty-text', axes))
    }
    // Several defects at once need two fields to get wrong (an order's body is its quoteId alone).
    if (Object.keys(body.fields).length >= 2) out.push(cell('§7.2/details', 'body-several-defects', { resource, op }))
    // A JSON array or scalar is no body of fields; where nothing is required, only its type refuses it.
    out.push(cell('§7.3/invalid-request', 'body-not-object', { resource, op }))
    out.push(cell('§7.3/invalid-request', 'body-invalid-code', { resource, op }))
    out.push(cell('§4.4/bodies', 'body-valid-roundtrip', { resource, op }))
  }
  return out
}

/** §5: each scope mapping of §5.4 both ways, per operation; each kind of invalid key per method; IP and role. */
function authCells(): Cell[] {
  const out: Cell[] = []
  for (const r of RESOURCE_LIST)
    for (const op of (Object.keys(r.ops) as OpName[]).filter((o) => r.ops[o])) {
      const ways = ['refused-without-scope', 'served-with-scope']
      if (WRITE_OPS.includes(op)) ways.push('refused-with-read-scope-only')
      for (const way of ways) out.push(cell('§5.4/scope-areas', 'scope', { resource: r.name, op, way }))
    }
  // §5.5: "A missing key or a key that is no longer valid": the forms a client sends, on a read, a write and /me.
  for (const kind of INVALID_KEY_KINDS)
    for (const method of ['read', 'write', 'me']) {
      out.push(cell('§5.5/401', 'invalid-key', { kind, method }))
      out.push(cell('§7.4/401', 'invalid-key-envelope', { kind, method }))
    }
  for (const method of ['read', 'write', 'me']) out.push(cell('§5.3/ip-allowlist', 'ip-allowlist', { method }))
  for (const way of ['denied-refused', 'denied-changes-nothing', 'allowed-served']) out.push(cell('§5.3/owner-role', 'owner-role', { way }))
  for (const cause of ['scope', 'owner-role', 'ip-allowlist']) {
    out.push(cell('§5.6/403', 'forbidden', { cause }))
    out.push(cell('§7.5/403', 'forbidden-envelope', { cause }))
  }
  for (const op of ['get', 'update', 'delete', 'list', 'filter']) out.push(cell('§5.7/404', 'other-workspace', { op }))
  for (const part of ['workspace', 'key-name', 'scopes', 'user']) out.push(cell('§2/me', 'me', { part }))
  return out
}

/** §4.1 idempotency, §3 state rules, §5.8/§7.7/§8 rate limits, §6 webhooks: each rule per operation, state, key, event. */
function ruleCells(): Cell[] {
  const out: Cell[] = []
  for (const r of RESOURCE_LIST.filter((x) => x.ops.create))
    for (const aspect of ['replays', 'no-duplicate']) out.push(cell('§4.1/idempotency-replay', 'idempotency', { resource: r.name, aspect }))
  for (const aspect of ['other-key-creates', 'other-api-key-isolated', 'after-update', 'different-body-then-retry', 'replay-after-a-pause'])
    out.push(cell('§4.1/idempotency-replay', 'idempotency-rule', { aspect }))

  for (const body of ['no-status', 'status-in-body'])
    for (const resource of ['quotation', 'invoice']) out.push(cell('§3/drafts', 'created-draft', { resource, body }))
  // §3 names only `draft`; the other states are those the API or the fixtures let a client reach.
  for (const state of ['draft', 'sent', 'accepted', 'declined'])
    for (const op of ['replace', 'delete']) out.push(cell('§3.1/quotation-draft-only', 'draft-only', { resource: 'quotation', op, state }))
  for (const state of ['draft', 'sent', 'paid', 'void']) out.push(cell('§3.1/invoice-draft-only', 'draft-only', { resource: 'invoice', op: 'replace', state }))
  for (const state of ['accepted', 'draft', 'sent', 'declined']) out.push(cell('§3.2/order-from-accepted', 'order-from', { state }))
  out.push(cell('§4.3/one-order-per-quotation', 'order-from', { state: 'accepted-with-order' }))

  // §5.8 "each key has its own", judged per key kind; §7.7 and §8 per header.
  for (const key of ['main', 'rate-limited', 'other'])
    for (const aspect of ['limit-is-the-keys-own', 'remaining-decreases', 'not-spent-by-other-keys'])
      out.push(cell('§5.8/per-key-limit', 'per-key', { key, aspect }))
  for (const header of ['429-status', 'RateLimit-Limit', 'RateLimit-Remaining-0', 'RateLimit-Reset', 'Retry-After', 'error-envelope'])
    out.push(cell('§7.7/429', 'rate-429', { header }))
  for (const answer of ['success', 'error', '429'])
    for (const header of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) out.push(cell('§8/rate-headers', 'rate-headers', { answer, header }))
  for (const aspect of ['served-after-wait', 'within-a-minute']) out.push(cell('§8/retry-after', 'retry-after', { aspect }))

  // §6.2 names two events; every rule of §6.3–§6.7 holds for each.
  for (const event of ['case.created', 'invoice.paid']) {
    out.push(cell('§6.2/kinds', 'event-emitted', { event }))
    for (const part of ['type', 'timestamp', 'data.id', 'data.entityType', 'data.object', 'data.changes'])
      out.push(cell('§6.3/body', 'event-body', { event, part }))
    for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) out.push(cell('§6.4/headers', 'event-header', { event, header }))
    out.push(cell('§6.5/signature', 'event-signature', { event }))
    for (const rule of ['timestamp-within-300s', 'id-unique-per-event']) out.push(cell('§6.6/tolerance', 'event-tolerance', { event, rule }))
    for (const ack of ['500-then-retry', 'retry-same-id', '2xx-other-than-200-acknowledges']) out.push(cell('§6.7/retries', 'event-retry', { event, ack }))
  }
  out.push(cell('§6.2/kinds', 'event-kind-form', { form: 'entity.action' }))
  // §6.3 holds for every event the server sends, not only those a check can tie to its own records.
  out.push(cell('§6.3/body', 'event-body-untied', { delivery: 'signed-not-tied-to-the-run' }))
  return out
}

/** Every cell of the matrix; a MUST or SHOULD statement no generator reaches gets one cell of its own. */
export function generateCells(): Cell[] {
  const cells = [...filterCells(), ...listCells(), ...recordCells(), ...bodyCells(), ...authCells(), ...ruleCells()]
  const reached = new Set(cells.map((c) => c.statement))
  for (const s of STATEMENTS)
    if (s.level !== 'INFO' && !reached.has(s.id)) cells.push({ id: `statement:${s.id}`, statement: s.id, family: 'statement', axes: { statement: s.id } })
  return cells
}
