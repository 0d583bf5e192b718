// Named faults: each one a realistic implementer mistake, switched on by name to prove that some check fails.
// Adding a fault: one entry here, and one `if (faults.has('<id>'))` where the mistake would be made.
import { RESOURCE_LIST, parseFieldType, scopeFor, writeBodies, type FilterSpec, type ResourceSpec } from '../spec/resources.ts'
import { RESTRICTED_SCOPES } from './seed.ts'

export interface FaultInfo {
  id: string
  /** The mistake, as a reviewer would describe it. */
  description: string
  /** The suite area whose checks should catch it. */
  area: string
  /** Check ids that must fail with this fault switched on (and pass without it). */
  catches?: readonly string[]
}

// Families of check ids, generated from the spec's tables (suites/ is not imported here: the server must not
// depend on the suite). The coverage test proves every generated id exists in the catalogue.
const byResource = (fn: (r: ResourceSpec) => string[]): string[] => RESOURCE_LIST.flatMap(fn)
const filterIds = (property: string, which: (r: ResourceSpec, f: FilterSpec) => boolean = () => true): string[] =>
  byResource((r) => r.filters.filter((f) => which(r, f)).map((f) => `filters.${r.name}.${f.param}.${property}`))
/** The collections the filters area creates records in (suites/filters/made.ts), and the filters a new record cannot match. */
const FILTER_MADE = new Set(['account', 'contact', 'case', 'lead', 'opportunity', 'quotation', 'task', 'comment', 'activity', 'product', 'invoice'])
const FILTER_UNREACHABLE = new Set(['invoice.orderId'])
const madeFilter = (r: ResourceSpec, f: FilterSpec) => FILTER_MADE.has(r.name) && !FILTER_UNREACHABLE.has(`${r.name}.${f.param}`)
/** §5.4 scope checks: reads of every collection, creates of every writable one; in or out of the restricted key's scopes. */
const scopeIds = (inRestricted: boolean): string[] =>
  byResource((r) => [
    ...(RESTRICTED_SCOPES.includes(scopeFor(r.name, 'list')) === inRestricted ? [`auth.scope.${r.name}.read`] : []),
    ...(r.ops.create && RESTRICTED_SCOPES.includes(scopeFor(r.name, 'create')) === inRestricted ? [`auth.scope.${r.name}.write`] : []),
  ])
/** The collections the bodies area writes with generated bodies (suites/bodies), each with its one change operation. */
const BODIES_WRITES = (['account', 'contact', 'case', 'lead', 'opportunity', 'quotation', 'task'] as const).map((r) => ({ r, change: r === 'quotation' ? 'replace' : 'update' }))
const bodiesIds = (suffix: 'roundtrip' | 'invalid', ops: ('create' | 'change')[]): string[] =>
  BODIES_WRITES.flatMap(({ r, change }) => ops.map((op) => `bodies.${r}.${op === 'create' ? 'create' : change}-${suffix}`))
/** The validation area's per-body checks: required (a body with required fields), types (every body), enums (a body with an enum field). */
const validationIds = (property: 'required' | 'types' | 'enums'): string[] =>
  writeBodies()
    .filter(({ body }) => (property === 'required' ? body.required.length > 0 : property === 'enums' ? Object.values(body.fields).some((t) => parseFieldType(t).base === 'enum') : true))
    .map(({ resource, op }) => `validation.${resource}.${op}.${property}`)
/** The collections whose records the records area writes with null text or uuid fields (their roundtrip checks). */
const NULLABLE_WRITTEN = new Set(['account', 'contact', 'case', 'lead', 'opportunity', 'quotation', 'task', 'product', 'invoice', 'activity'])
/** The idempotency area's replay of every create but the accounts' (suites/idempotency/every-create.ts). */
const replayIds = byResource((r) => (r.ops.create && r.name !== 'account' ? [`idempotency.${r.name}.replays`] : []))
const unknownIdIds = byResource((r) => (r.ops.get ? [`read-only.${r.name}.unknown-id`] : []))

export const FAULTS = [
  {
    id: 'records.missing-updatedAt',
    area: 'records',
    description: 'Records are returned without their updatedAt field.',
    catches: [
      'records.account.list-page',
      'records.account.get-one',
      'records.contact.list-page',
      'records.contact.get-one',
      'records.case.list-page',
      'records.case.get-one',
      'records.lead.list-page',
      'records.lead.get-one',
      'records.opportunity.list-page',
      'records.opportunity.get-one',
      'records.quotation.list-page',
      'records.quotation.get-one',
      'records.order.list-page',
      'records.order.get-one',
      'records.invoice.list-page',
      'records.invoice.get-one',
      'records.product.list-page',
      'records.product.get-one',
      'records.task.list-page',
      'records.task.get-one',
      'records.article.list-page',
      'records.article.get-one',
      'records.account.schema',
      'records.contact.schema',
      'records.case.schema',
      'records.lead.schema',
      'records.opportunity.schema',
      'records.quotation.schema',
      'records.task.schema',
      'records.product.schema',
      'records.invoice.schema',
    ],
  },
  {
    id: 'records.datetime-without-zone',
    area: 'records',
    description: 'Date-time fields are written without a zone (2025-01-01T10:00:00.000).',
    catches: [
      'records.account.list-page',
      'records.account.get-one',
      'records.contact.list-page',
      'records.contact.get-one',
      'records.case.list-page',
      'records.case.get-one',
      'records.comment.list-page',
      'records.comment.get-one',
      'records.lead.list-page',
      'records.lead.get-one',
      'records.opportunity.list-page',
      'records.opportunity.get-one',
      'records.quotation.list-page',
      'records.quotation.get-one',
      'records.order.list-page',
      'records.order.get-one',
      'records.invoice.list-page',
      'records.invoice.get-one',
      'records.payment.list-page',
      'records.payment.get-one',
      'records.product.list-page',
      'records.product.get-one',
      'records.task.list-page',
      'records.task.get-one',
      'records.activity.list-page',
      'records.activity.get-one',
      'records.article.list-page',
      'records.article.get-one',
      'records.message.list-page',
      'records.message.get-one',
      'records.user.list-page',
      'records.user.get-one',
      'records.account.schema',
      'records.contact.schema',
      'records.case.schema',
      'records.lead.schema',
      'records.opportunity.schema',
      'records.quotation.schema',
      'records.task.schema',
      'records.product.schema',
      'records.invoice.schema',
      'records.comment.schema',
      'records.activity.schema',
    ],
  },
  {
    id: 'records.null-as-empty-string',
    area: 'records',
    description: 'Nullable strings and uuids that are null are sent as "" (a zero value serialised as is).',
    catches: byResource((r) =>
      NULLABLE_WRITTEN.has(r.name)
        ? [`records.${r.name}.roundtrip`, `records.${r.name}.schema`, `records.${r.name}.listed`, ...(r.ops.update ? [`records.${r.name}.update`] : r.ops.replace ? [`records.${r.name}.replace`] : [])]
        : [],
    ),
  },
  {
    id: 'records.comment-html-escaped',
    area: 'records',
    description: 'A comment\'s HTML is escaped instead of sanitised, so &lt;p&gt; shows as text.',
    catches: ['records.comment.roundtrip', 'records.comment.listed'],
  },
  {
    id: 'records.list-index-lag',
    area: 'records',
    description: 'Lists are served from a search index refreshed every 10 s: a record just created is missing from them.',
    catches: [
      'records.account.listed',
      'records.contact.listed',
      'records.case.listed',
      'records.lead.listed',
      'records.opportunity.listed',
      'records.quotation.listed',
      'records.task.listed',
      'records.product.listed',
      'records.invoice.listed',
      'records.comment.listed',
      'records.activity.listed',
    ],
  },
  {
    id: 'records.change-not-persisted',
    area: 'records',
    description: 'An update or replace answers the changed record but never saves it: GET shows the old values.',
    catches: [
      ...byResource((r) => (r.ops.update || r.ops.replace ? [`records.${r.name}.timestamps`] : [])),
      'records.account.update',
      'records.contact.update',
      'records.case.update',
      'records.lead.update',
      'records.opportunity.update',
      'records.quotation.replace',
      'records.task.update',
      'records.product.replace',
      'records.invoice.replace',
    ],
  },
  {
    id: 'records.updatedAt-not-bumped',
    area: 'records',
    description: 'updatedAt is set on insert only: an update or replace leaves it as it was.',
    catches: [
      'records.account.timestamps',
      'records.contact.timestamps',
      'records.case.timestamps',
      'records.lead.timestamps',
      'records.opportunity.timestamps',
      'records.quotation.timestamps',
      'records.task.timestamps',
      'records.product.timestamps',
      'records.invoice.timestamps',
    ],
  },
  {
    id: 'records.write-only-echoed',
    area: 'records',
    description: 'The serialiser writes every column: write-only fields (backupOwnerId, items, recurrence…) appear in records.',
    catches: [
      'records.account.write-only-hidden',
      'records.contact.write-only-hidden',
      'records.quotation.write-only-hidden',
      'records.task.write-only-hidden',
      'records.invoice.write-only-hidden',
    ],
  },
  {
    id: 'records.deleted-still-readable',
    area: 'records',
    description: 'A delete is acknowledged (2xx) but never carried out: GET still answers 200.',
    catches: [
      'records.account.delete',
      'records.contact.delete',
      'records.case.delete',
      'records.lead.delete',
      'records.opportunity.delete',
      'records.quotation.delete',
      'records.task.delete',
    ],
  },
  { id: 'bodies.create-drops-optional-fields', area: 'bodies', description: 'POST stores only the required fields (and tags); the optional fields sent are dropped and take their defaults.', catches: bodiesIds('roundtrip', ['create']) },
  { id: 'bodies.update-resets-unsent-fields', area: 'bodies', description: 'An update is handled as a full write: every nullable field the body does not name is cleared to null.', catches: ['bodies.account.update-roundtrip', 'bodies.contact.update-roundtrip', 'bodies.task.update-roundtrip'] },
  { id: 'bodies.replace-skips-nulls', area: 'bodies', description: 'A replace merges the body and skips its null values, so a field replaced by null keeps its old value.', catches: ['bodies.quotation.replace-roundtrip'] },
  { id: 'bodies.write-answers-old-record', area: 'bodies', description: 'Update and replace answer with the record as it was loaded, before the write.', catches: bodiesIds('roundtrip', ['change']) },
  { id: 'bodies.types-unchecked', area: 'bodies', description: 'Body validation only looks for missing required fields: wrong types, unlisted enum values and fractions pass.', catches: bodiesIds('invalid', ['create', 'change']) },
  { id: 'pagination.default-limit-20', area: 'pagination', description: 'A list without limit returns 20 records, not 25.', catches: ['pagination.limit.default'] },
  { id: 'pagination.repeat-boundary-record', area: 'pagination', description: 'The next page starts with the last record of the previous page.', catches: ['pagination.cursor.walk-complete', 'pagination.limit.one'] },
  { id: 'pagination.skip-boundary-record', area: 'pagination', description: 'The next page starts one record too far, so a record at each page boundary is never listed.', catches: ['pagination.cursor.walk-complete'] },
  { id: 'pagination.limit-ignored', area: 'pagination', description: 'limit is validated but never applied: every page has the default size.', catches: ['pagination.limit.one', 'pagination.cursor.walk-complete'] },
  { id: 'pagination.limit-clamped', area: 'pagination', description: 'A limit outside 1–100 is clamped into it, and one that does not parse keeps the default, instead of a 400.', catches: ['pagination.limit.rejects-zero', 'pagination.limit.rejects-101', 'pagination.limit.rejects-negative', 'pagination.limit.rejects-non-integer'] },
  { id: 'pagination.bad-cursor-restarts', area: 'pagination', description: 'A cursor that does not decode starts the list again from the first page instead of a 400.', catches: ['pagination.cursor.rejects-garbage'] },
  { id: 'pagination.bad-sort-ignored', area: 'pagination', description: 'Unknown sort and order values fall back to the defaults instead of a 400.', catches: ['pagination.sort.rejects-unknown', 'pagination.order.rejects-unknown'] },
  { id: 'pagination.bad-since-ignored', area: 'pagination', description: 'A createdSince or updatedSince that is not a date-time is ignored instead of a 400.', catches: ['pagination.createdSince.rejects-non-date', 'pagination.updatedSince.rejects-non-date'] },
  { id: 'pagination.param-error-code', area: 'pagination', description: 'Bad list parameters answer 400 with the code bad_parameter instead of invalid_request.', catches: ['pagination.params.invalid-request-code'] },
  { id: 'pagination.sort-ignored', area: 'pagination', description: 'sort is validated but lists are always ordered by createdAt.', catches: ['pagination.sort.updatedAt-asc', 'pagination.sort.updatedAt-desc'] },
  { id: 'pagination.order-ignored', area: 'pagination', description: 'order is validated but lists always run newest first.', catches: ['pagination.sort.createdAt-asc', 'pagination.sort.updatedAt-asc'] },
  { id: 'pagination.default-order-asc', area: 'pagination', description: 'Without order, lists run oldest first.', catches: ['pagination.sort.default'] },
  { id: 'pagination.updatedSince-reads-createdAt', area: 'pagination', description: 'updatedSince is compared with createdAt, so a change to an older record is never synced.', catches: ['pagination.updatedSince.incremental-sync'] },
  {
    id: 'filters.email-ignored',
    area: 'filters',
    description: 'The email filter is ignored: every record is returned.',
    catches: ['filters.account.email.sound', 'filters.contact.email.sound', 'filters.lead.email.sound', 'filters.user.email.sound'],
  },
  {
    id: 'filters.email-case-sensitive',
    area: 'filters',
    description: 'The email filter compares the address as stored, so a lower-case query misses Hello@Example.com.',
    catches: ['filters.account.email.complete', 'filters.account.email.complete-new', 'filters.contact.email.complete-new', 'filters.lead.email.complete', 'filters.lead.email.complete-new'],
  },
  {
    id: 'filters.sku-lowercased',
    area: 'filters',
    description: 'The sku filter lower-cases its value like the email filter, then compares it with the stored SKU.',
    catches: ['filters.product.sku.complete', 'filters.product.sku.complete-new'],
  },
  {
    id: 'filters.mobile-plus-as-space',
    area: 'filters',
    description: "The mobile filter reads '+' as a form-encoded space and trims it, so no E.164 number ever matches.",
    catches: ['filters.contact.mobile.complete', 'filters.contact.mobile.complete-new'],
  },
  {
    id: 'filters.unimplemented-ignored',
    area: 'filters',
    description: 'Filters the server never implemented (accounts parentId, cases teamId, articles categoryId) are silently ignored.',
    catches: ['filters.account.parentId.sound', 'filters.case.teamId.sound', 'filters.article.categoryId.sound'],
  },
  {
    id: 'filters.empty-result-404',
    area: 'filters',
    description: 'A filtered list that matches nothing answers 404 instead of 200 with an empty data array.',
    // A uuid naming no record may rightly be answered 404 (a server that loads the record first): string filters only.
    catches: filterIds('sound', (_, f) => f.kind === 'string'),
  },
  {
    id: 'filters.unknown-uuid-unfiltered',
    area: 'filters',
    description: 'A uuid filter is looked up first, and a value no record holds reaches the ORM as undefined, which drops the condition: every record is listed.',
    catches: filterIds('sound', (_, f) => f.kind === 'uuid'),
  },
  {
    id: 'filters.enum-unvalidated',
    area: 'filters',
    description: 'Enumerated filters (status, visibility, direction, kind) take any value and answer an empty list for an unlisted one.',
    catches: [
      'filters.opportunity.status.rejects-unlisted',
      'filters.task.status.rejects-unlisted',
      'filters.product.status.rejects-unlisted',
      'filters.article.visibility.rejects-unlisted',
      'filters.message.direction.rejects-unlisted',
      'filters.comment.kind.rejects-unlisted',
    ],
  },
  {
    id: 'filters.direction-system-refused',
    area: 'filters',
    description: 'The message direction filter accepts in, out and note but refuses the listed value system.',
    catches: ['filters.message.direction.values'],
  },
  {
    id: 'read-only.unknown-id-200-null',
    area: 'read-only',
    description: 'GET of an id no record has answers 200 with a null body (the ORM\'s null sent as is).',
    catches: unknownIdIds,
  },
  {
    id: 'read-only.non-uuid-500',
    area: 'read-only',
    description: 'An id that is not a uuid reaches the database unchecked and answers 500.',
    catches: byResource((r) => (r.ops.get ? [`read-only.${r.name}.non-uuid-id`] : [])),
  },
  {
    id: 'read-only.create-everywhere',
    area: 'read-only',
    // users:write exists in no key's scopes (§5.4), so POST /users still ends in 403: only articles are caught.
    description: 'The generic router registers POST on every collection, so articles can be created.',
    catches: ['read-only.article.create-refused'],
  },
  {
    id: 'read-only.update-everywhere',
    area: 'read-only',
    description: 'The generic router registers PATCH and PUT on every record path and answers 200 with the record.',
    // users:write exists in no key's scopes (§5.4), so PATCH and PUT /users still end in 403: users are not caught.
    catches: byResource((r) => (r.ops.update || r.ops.replace || r.name === 'user' ? [] : [`read-only.${r.name}.patch-refused`, `read-only.${r.name}.put-refused`])),
  },
  {
    id: 'read-only.delete-everywhere',
    area: 'read-only',
    description: 'The generic router registers DELETE on every record path, so comments, activities, products and invoices can be deleted.',
    catches: ['read-only.comment.delete-refused', 'read-only.activity.delete-refused', 'read-only.product.delete-refused', 'read-only.invoice.delete-refused'],
  },
  {
    id: 'validation.no-details',
    area: 'validation',
    description: 'A 400 for an invalid body has no details array.',
    catches: [...validationIds('required'), ...validationIds('types'), ...validationIds('enums')],
  },
  {
    id: 'validation.required-unchecked',
    area: 'validation',
    description: 'Required fields are not enforced: a create or replace without them is stored with defaults (or crashes).',
    catches: validationIds('required'),
  },
  {
    id: 'validation.enums-unchecked',
    area: 'validation',
    description: 'Enumerated body fields (locale, priority, method, kind, source, status…) take any string.',
    catches: validationIds('enums'),
  },
  {
    id: 'validation.types-coerced',
    area: 'validation',
    description: 'Wrong JSON types are coerced as a form parser would: 12345 becomes "12345", "100" becomes 100, 12.5 becomes 12.',
    catches: [
      'validation.account.create.types',
      'validation.account.update.types',
      'validation.contact.create.types',
      'validation.contact.update.types',
      'validation.case.create.types',
      'validation.case.update.types',
      'validation.comment.create.types',
      'validation.lead.create.types',
      'validation.lead.update.types',
      'validation.opportunity.create.types',
      'validation.opportunity.update.types',
      'validation.quotation.create.types',
      'validation.quotation.replace.types',
      'validation.invoice.create.types',
      'validation.invoice.replace.types',
      'validation.payment.create.types',
      'validation.product.create.types',
      'validation.product.replace.types',
      'validation.task.create.types',
      'validation.task.update.types',
      'validation.activity.create.types',
      'validation.message.create.types',
    ],
  },
  {
    id: 'validation.reference-uuid-unchecked',
    area: 'validation',
    description: 'uuid body fields are not format-checked: a non-uuid reference reaches the database, whose uuid cast throws (500); others are stored as is.',
    catches: [
      'validation.account.create.types',
      'validation.account.update.types',
      'validation.contact.create.types',
      'validation.contact.update.types',
      'validation.case.create.types',
      'validation.case.update.types',
      'validation.comment.create.types',
      'validation.lead.create.types',
      'validation.opportunity.create.types',
      'validation.opportunity.update.types',
      'validation.quotation.create.types',
      'validation.quotation.replace.types',
      'validation.order.create.types',
      'validation.invoice.create.types',
      'validation.invoice.replace.types',
      'validation.payment.create.types',
      'validation.product.create.types',
      'validation.product.replace.types',
      'validation.task.create.types',
      'validation.task.update.types',
      'validation.activity.create.types',
      'validation.message.create.types',
    ],
  },
  {
    id: 'validation.empty-email-refused',
    area: 'validation',
    description: 'Email fields are checked for an address format that does not allow the empty string of §4.1.',
    catches: ['validation.account.email-values', 'validation.contact.email-values', 'validation.lead.email-values'],
  },
  {
    id: 'validation.body-unguarded-500',
    area: 'validation',
    description: 'The body is parsed without a guard: malformed JSON, or an array or string body, ends in a 500.',
    catches: ['validation.body.malformed-json', 'validation.body.not-an-object'],
  },
  {
    id: 'auth.missing-key-403',
    area: 'auth',
    description: 'A request without a key answers 403 instead of 401.',
    catches: ['auth.missing-key.read', 'auth.missing-key.write'],
  },
  {
    id: 'auth.malformed-header-400',
    area: 'auth',
    description: 'An Authorization header that is not `Bearer <token>` (no token, another scheme) is answered 400 invalid_request, not 401.',
    catches: ['auth.bearer-without-key.read', 'auth.bearer-without-key.write', 'auth.basic-scheme.read', 'auth.basic-scheme.write', 'auth.key-under-basic-scheme.read', 'auth.key-under-basic-scheme.write'],
  },
  {
    id: 'auth.prefix-not-checked',
    area: 'auth',
    description: "Keys are looked up by workspace and secret; the prefix is never compared, so the key works under any prefix.",
    catches: ['auth.wrong-prefix.read', 'auth.wrong-prefix.write'],
  },
  {
    id: 'auth.secret-not-compared',
    area: 'auth',
    description: "A key of the right form naming a known workspace is accepted without comparing its secret.",
    catches: ['auth.unknown-secret.read', 'auth.unknown-secret.write'],
  },
  {
    id: 'auth.garbage-key-500',
    area: 'auth',
    description: 'A bearer token that is not key-shaped breaks the key parser: 500 instead of 401.',
    catches: ['auth.garbage-key.read', 'auth.garbage-key.write', 'auth.wrong-prefix.read', 'auth.wrong-prefix.write', 'invariants.no-server-errors', 'invariants.ratelimit-headers'],
  },
  {
    id: 'auth.revocation-ignored',
    area: 'auth',
    description: 'A revoked key still works: revocation is never checked on a call.',
    catches: ['auth.revoked-key.read', 'auth.revoked-key.write'],
  },
  {
    id: 'auth.any-scheme',
    area: 'auth',
    description: "The key is taken from the header's second word whatever the scheme, so `Basic <key>` works.",
    catches: ['auth.key-under-basic-scheme.read', 'auth.key-under-basic-scheme.write'],
  },
  {
    id: 'auth.scopes-ignored',
    area: 'auth',
    description: 'Scopes are not enforced: any valid key may call anything.',
    catches: scopeIds(false),
  },
  {
    id: 'auth.comments-own-scope',
    area: 'auth',
    description: 'Comments need comments:read/write scopes of their own instead of the cases scopes (§5.4).',
    catches: ['auth.scope.comment.read'],
  },
  {
    id: 'auth.scope-checked-after-write',
    area: 'auth',
    description: 'A create checks the scope after writing: the key without the scope gets 403, and the record exists.',
    catches: scopeIds(false).filter((id) => id.endsWith('.write')),
  },
  {
    id: 'auth.ip-allowlist-ignored',
    area: 'auth',
    description: "A key's IP allowlist is stored but never compared with the caller's address.",
    catches: ['auth.ip-blocked.refused'],
  },
  {
    id: 'auth.item-any-workspace',
    area: 'auth',
    description: "Get, update and delete by id look the id up in every workspace, not only the key's.",
    catches: ['auth.foreign.get', 'auth.foreign.update', 'auth.foreign.delete'],
  },
  {
    id: 'auth.foreign-record-403',
    area: 'auth',
    description: "Get, update and delete by id answer 403 for another workspace's record (404 for an id that names nothing), telling the caller it exists.",
    catches: ['auth.foreign.get', 'auth.foreign.update', 'auth.foreign.delete'],
  },
  {
    id: 'auth.list-any-workspace',
    area: 'auth',
    description: "An unfiltered list returns every workspace's records.",
    catches: ['auth.foreign.list'],
  },
  {
    id: 'auth.filtered-list-any-workspace',
    area: 'auth',
    description: "A filtered list drops the workspace condition: another workspace's records match the filter.",
    catches: ['auth.foreign.filter'],
  },
  {
    id: 'auth.unknown-id-500',
    area: 'auth',
    description: 'A get by a well-formed id that no record has dereferences the missing record: 500 instead of 404.',
    catches: unknownIdIds,
  },
  {
    id: 'idempotency.ignored',
    area: 'idempotency',
    description: 'Idempotency-Key is ignored: every retry creates another record.',
    catches: ['idempotency.same-key.replays', 'idempotency.same-key.no-duplicate', ...replayIds],
  },
  {
    id: 'idempotency.replay-status-200',
    area: 'idempotency',
    description: 'A replay answers a plain 200 where the first create answered 201.',
    catches: ['idempotency.same-key.replays'],
  },
  {
    id: 'idempotency.replay-also-creates',
    area: 'idempotency',
    description: 'The create runs before the Idempotency-Key is looked up: the first response is replayed, and a duplicate is stored.',
    catches: ['idempotency.same-key.no-duplicate', ...replayIds.filter((id) => id !== 'idempotency.payment.replays')],
  },
  {
    id: 'idempotency.keyed-by-body',
    area: 'idempotency',
    description: 'Replays are found by the body alone: the same body under another Idempotency-Key returns the first record.',
    catches: ['idempotency.other-key.creates'],
  },
  {
    id: 'idempotency.shared-across-keys',
    area: 'idempotency',
    description: "Replays are stored per Idempotency-Key only, not per API key: another key (another workspace) gets the first key's record.",
    catches: ['idempotency.foreign-key.isolated'],
  },
  {
    id: 'ratelimit.no-headers-on-errors',
    area: 'ratelimit',
    description: 'RateLimit-* headers are missing on 4xx responses.',
    catches: ['invariants.ratelimit-headers', 'rate-limits.429.headers'],
  },
  {
    id: 'rate-limits.remaining-stuck',
    area: 'rate-limits',
    description: 'RateLimit-Remaining always reports the full limit.',
    catches: ['rate-limits.remaining.decreases'],
  },
  {
    id: 'rate-limits.headers-swapped',
    area: 'rate-limits',
    description: 'RateLimit-Limit and RateLimit-Remaining are swapped.',
    catches: ['rate-limits.limit.constant', 'rate-limits.remaining.decreases', 'rate-limits.429.headers'],
  },
  {
    id: 'rate-limits.reset-iso-date',
    area: 'rate-limits',
    description: 'RateLimit-Reset is an ISO 8601 timestamp, not a number of seconds.',
    catches: ['rate-limits.reset.number'],
  },
  {
    id: 'rate-limits.no-429',
    area: 'rate-limits',
    description: 'The per-key limit is announced in the headers but never enforced.',
    catches: ['rate-limits.429.reached'],
  },
  {
    id: 'rate-limits.429-without-retry-after',
    area: 'rate-limits',
    description: 'The 429 has no Retry-After header.',
    catches: ['rate-limits.429.retry-after'],
  },
  {
    id: 'rate-limits.429-plain-text',
    area: 'rate-limits',
    description: 'The 429 is written by a middleware default: `Too Many Requests` as text, without the error envelope.',
    catches: ['rate-limits.429.envelope'],
  },
  {
    id: 'rate-limits.429-without-ratelimit-headers',
    area: 'rate-limits',
    description: 'The 429 carries Retry-After only: RateLimit-* are set by the handler a refused call never reaches.',
    catches: ['rate-limits.429.headers'],
  },
  {
    id: 'rate-limits.retry-after-fixed-1s',
    area: 'rate-limits',
    description: "Retry-After is always 1 second, whatever the limiter's real wait: a client that waits that long is refused again.",
    catches: ['rate-limits.retry-after.honoured'],
  },
  {
    id: 'rate-limits.retry-after-milliseconds',
    area: 'rate-limits',
    description: 'Retry-After is written in milliseconds.',
    catches: ['rate-limits.429.retry-after-within-minute'],
  },
  {
    id: 'rate-limits.hidden-burst-limit',
    area: 'rate-limits',
    description: 'Besides the per-minute limit, a burst cap that no header announces refuses a key past 100 calls in a second, while RateLimit-Remaining still shows the quota.',
    catches: ['rate-limits.main-key.never-limited'],
  },
  {
    id: 'state.replace-non-draft',
    area: 'state',
    description: 'A quotation or invoice that is no longer a draft can still be replaced.',
    catches: ['state.quotation.replace-non-draft', 'state.invoice.replace-non-draft'],
  },
  {
    id: 'state.created-not-draft',
    area: 'state',
    description: 'Quotations and invoices are created with status open instead of draft.',
    catches: ['state.quotation.created-draft', 'state.invoice.created-draft'],
  },
  {
    id: 'state.delete-non-draft',
    area: 'state',
    description: 'A quotation that is no longer a draft can still be deleted: the draft rule guards replace only.',
    catches: ['state.quotation.delete-non-draft'],
  },
  {
    id: 'state.refused-write-saved',
    area: 'state',
    description: 'A replace of a non-draft record is saved before the draft rule is checked: the answer refuses it, the record has changed.',
    catches: ['state.quotation.replace-non-draft', 'state.invoice.replace-non-draft'],
  },
  {
    id: 'state.drafts-locked',
    area: 'state',
    description: 'The draft rule tests the wrong way round for drafts: replace and delete refuse drafts too.',
    catches: ['state.quotation.replace-draft', 'state.invoice.replace-draft', 'state.quotation.delete-draft'],
  },
  {
    id: 'state.order-from-any-quotation',
    area: 'state',
    description: 'An order can be created from a quotation in any state, a draft included.',
    catches: ['state.order.non-accepted-refused'],
  },
  {
    id: 'state.order-accepted-refused',
    area: 'state',
    description: "Order creation compares the quotation's status with the wrong name (approved) and refuses accepted quotations.",
    catches: ['state.order.from-accepted'],
  },
  {
    id: 'state.order-total-before-tax',
    area: 'state',
    description: "An order copies the quotation's grossSen (before discount and tax) as its totalSen.",
    catches: ['state.order.follows-quotation'],
  },
  {
    id: 'state.payment-not-applied',
    area: 'state',
    description: "A payment is recorded but the invoice's paidSen is not raised.",
    catches: ['state.payment.raises-paid'],
  },
  {
    id: 'side-effects.recycle-bin-still-visible',
    area: 'side-effects',
    description: 'Deleting an account or contact only flags it for the recycle bin: GET and lists still return it.',
    catches: ['side-effects.recycle-bin.account', 'side-effects.recycle-bin.contact'],
  },
  {
    id: 'side-effects.contact-account-ignored',
    area: 'side-effects',
    description: "A contact's accountId on create is dropped: primaryAccountId stays null.",
    catches: ['side-effects.contact.primary-account'],
  },
  {
    id: 'side-effects.lead-not-routed',
    area: 'side-effects',
    description: 'New leads created without ownerId stay without an owner.',
    catches: ['side-effects.lead.routed'],
  },
  {
    id: 'side-effects.comment-unsanitised',
    area: 'side-effects',
    description: 'Comment HTML is stored as sent, scripts, event handlers and javascript: links included.',
    catches: ['side-effects.comment.sanitised'],
  },
  {
    id: 'side-effects.activity-body-uncut',
    area: 'side-effects',
    description: 'An activity body is stored and returned whole, past 500 characters.',
    catches: ['side-effects.activity.body-preview'],
  },
  {
    id: 'side-effects.opportunity-fixed-fields-updatable',
    area: 'side-effects',
    description: 'The opportunity update applies pipelineId, stageKey and currency like any other field.',
    catches: ['side-effects.opportunity.fixed-fields'],
  },
  { id: 'webhooks.hex-signature', area: 'webhooks', description: 'The webhook signature is hex, not base64.', catches: ['webhooks.delivery.signature'] },
  {
    id: 'webhooks.raw-secret-key',
    area: 'webhooks',
    description: 'The HMAC key is the text of the whole `whsec_…` secret, not the base64-decoded bytes after the prefix.',
    catches: ['webhooks.delivery.signature'],
  },
  { id: 'webhooks.timestamp-ms', area: 'webhooks', description: 'webhook-timestamp is Date.now(): milliseconds, not Unix seconds.', catches: ['webhooks.delivery.timestamp'] },
  {
    id: 'webhooks.svix-headers',
    area: 'webhooks',
    description: 'The headers are named svix-id, svix-timestamp and svix-signature (copied from a Svix example), not webhook-*.',
    catches: ['webhooks.delivery.headers'],
  },
  {
    id: 'webhooks.flat-body',
    area: 'webhooks',
    description: 'The body\'s data is the record itself: no entityType, object or changes.',
    catches: ['webhooks.delivery.body-shape'],
  },
  {
    id: 'webhooks.entity-type-plural',
    area: 'webhooks',
    description: 'data.entityType is the table name (cases, invoices), not the entity (case).',
    catches: ['webhooks.case-events.entity-type'],
  },
  {
    id: 'webhooks.id-per-entity',
    area: 'webhooks',
    description: 'webhook-id is derived from the record id, so every event of one record (created, updated, paid…) carries the same id.',
    catches: ['webhooks.delivery.unique-id'],
  },
  {
    id: 'webhooks.retry-new-id',
    area: 'webhooks',
    description: 'Each retry is sent as a new message with a fresh webhook-id, so receivers cannot ignore the repeat.',
    catches: ['webhooks.retry.same-id'],
  },
  {
    id: 'webhooks.never-retries',
    area: 'webhooks',
    description: 'A non-2xx acknowledgement is logged and dropped: the event is never delivered again.',
    catches: ['webhooks.retry.arrives'],
  },
  { id: 'webhooks.no-case-created', area: 'webhooks', description: 'Cases created through the API emit no case.created event.', catches: ['webhooks.case.created'] },
  { id: 'webhooks.no-invoice-paid', area: 'webhooks', description: 'Paying an invoice in full emits invoice.updated but never invoice.paid.', catches: ['webhooks.invoice.paid'] },
  {
    id: 'discovery.me-double-encoded',
    area: 'discovery',
    description: 'The /me handler stringifies its body before c.json, which encodes it again: a JSON string, not an object.',
    catches: ['discovery.me.answers'],
  },
  {
    id: 'pagination.limit-uncapped',
    area: 'pagination',
    description: 'limit is checked against its lower bound only, so limit=101 and above return pages past 100 (in a workspace of 120 more users).',
    catches: ['pagination.limit.max-100', 'pagination.limit.rejects-101'],
  },
  {
    id: 'pagination.order-case-sensitive',
    area: 'pagination',
    description: "order is compared with the ORM's constant 'DESC', so an explicit order=desc sorts oldest first.",
    catches: ['pagination.sort.createdAt-desc', 'pagination.sort.updatedAt-desc'],
  },
  {
    id: 'pagination.createdSince-ignored',
    area: 'pagination',
    description: 'createdSince is validated but never passed on to the query: records created before it are listed.',
    catches: ['pagination.createdSince.strictly-after'],
  },
  {
    id: 'filters.first-match-dropped',
    area: 'filters',
    description: "A filtered list's offset is counted from 1: the first page of a filtered list misses its first matching record.",
    // The newest match is the one dropped: the record the run just created (a seeded sample may not be first).
    catches: filterIds('complete-new', madeFilter),
  },
  {
    id: 'filters.index-not-backfilled',
    area: 'filters',
    description: 'Filtered lists query a search index that was switched on without a backfill: no filter finds a record older than the index.',
    catches: filterIds('complete'),
  },
  {
    id: 'filters.enum-last-value-refused',
    area: 'filters',
    description: "Each enum filter's allow-list is sliced with an off-by-one end, so its last listed value is refused with 400.",
    catches: filterIds('values', (_, f) => f.kind === 'enum'),
  },
  {
    id: 'read-only.delete-stub-204',
    area: 'read-only',
    description: 'The read-only collections got a DELETE stub that answers 204 without looking the record up.',
    catches: byResource((r) => (r.ops.delete ? [] : [`read-only.${r.name}.delete-refused`])),
  },
  {
    id: 'read-only.user-writes-unscoped',
    area: 'read-only',
    description: 'POST, PATCH and PUT on users are routed to generic handlers that skip the scope check (no key holds users:write), and succeed.',
    catches: ['read-only.user.create-refused', 'read-only.user.patch-refused', 'read-only.user.put-refused'],
  },
  {
    id: 'auth.scopes-split-on-commas',
    area: 'auth',
    description: "A key's custom scope list is stored space-separated but read back split on commas: the restricted key holds one unusable scope, so calls inside its scopes are refused.",
    catches: scopeIds(true),
  },
  {
    id: 'invariants.framework-default-errors',
    area: 'invariants',
    description: "Unknown paths and wrong methods are answered by the framework's defaults: 404 Not Found and 405 Method Not Allowed as plain text.",
    catches: ['invariants.error-envelope', 'invariants.json-bodies'],
  },
  {
    id: 'invariants.json-as-text',
    area: 'invariants',
    description: 'A response wrapper sets every Content-Type to text/plain, JSON bodies included.',
    catches: ['invariants.json-bodies'],
  },
  // Issue 18: what independent implementations got wrong and the suite let through.
  { id: 'pagination.last-page-cursor-null', area: 'pagination', description: 'The last page of a list sends nextCursor: null, as the ORM returns no next position.', catches: ['pagination.cursor.string-on-every-page'] },
  { id: 'pagination.last-page-cursor-absent', area: 'pagination', description: 'The last page of a list leaves nextCursor out (the serialiser drops undefined fields).', catches: ['pagination.cursor.string-on-every-page'] },
  { id: 'discovery.me-without-scopes', area: 'discovery', description: "GET /me shows the workspace, the key's name and the user, but not the key's scopes.", catches: ['discovery.me.shows-scopes'] },
  { id: 'pagination.since-includes-bound', area: 'pagination', description: 'createdSince and updatedSince compare with >=, so the record created or changed at the bound itself is listed.', catches: ['pagination.createdSince.excludes-bound', 'pagination.updatedSince.excludes-bound'] },
  { id: 'state.second-order-accepted', area: 'state', description: 'The one-order-per-quotation rule is left to the client: a second POST /orders for the same accepted quotation makes another order.', catches: ['state.order.second-refused'] },
  { id: 'auth.owner-role-ignored', area: 'auth', description: "Only the key's scopes are checked: a key with every scope does what its owner's role may not (§5.3 b).", catches: ['auth.role.denied-refused'] },
  { id: 'auth.owner-role-checked-after-write', area: 'auth', description: "The owner's role is checked by an after-save hook: a create the role may not make answers 403, but the record is written.", catches: ['auth.role.denied-changes-nothing'] },
  { id: 'auth.role-overreach-read-only', area: 'auth', description: "A key whose scopes exceed its owner's role is made read-only as a whole, instead of refusing only what the role may not do.", catches: ['auth.role.allowed-served'] },
  // Issue 18 items 2 and 4 (sharper): exact filters that match approximately; Idempotency-Key honoured on one collection only.
  {
    id: 'filters.exact-substring',
    area: 'filters',
    description: "The string filters are a LIKE '%value%' in the filter's folded form: an email, SKU, mobile or tier that merely contains the queried value is returned.",
    catches: ['filters.account.email.near-miss', 'filters.account.tier.near-miss', 'filters.contact.email.near-miss', 'filters.contact.mobile.near-miss', 'filters.lead.email.near-miss', 'filters.product.sku.near-miss'],
  },
  { id: 'filters.exact-case-insensitive', area: 'filters', description: 'Exact string filters (tier, status, stage key, kind) compare ignoring case, as a case-insensitive collation does.', catches: ['filters.account.tier.near-miss'] },
  { id: 'idempotency.ignored-on-payments', area: 'idempotency', description: 'POST /payments never looks at the Idempotency-Key (the payment service was written apart): a retry records the payment twice.', catches: ['idempotency.payment.replays'] },
  { id: 'idempotency.replay-returns-current', area: 'idempotency', description: 'A replay keeps only the id of the first record and reads it again, so a record changed since comes back as it is now.', catches: ['idempotency.replay.after-update'] },
  // End of the issue 18 items 2 and 4 block.
] as const satisfies readonly FaultInfo[]

export type FaultId = (typeof FAULTS)[number]['id']

/** The faults switched on for one server; `has` is typed, so a misspelt id is a compile error. */
export type FaultSet = ReadonlySet<FaultId>

const KNOWN: ReadonlySet<string> = new Set(FAULTS.map((f) => f.id))

/** Throws on an unknown id, naming the known ones: a typo must not silently test nothing. */
export function faultSet(ids: readonly string[] = []): FaultSet {
  const unknown = ids.filter((id) => !KNOWN.has(id))
  if (unknown.length > 0) throw new Error(`Unknown fault id(s): ${unknown.join(', ')}. Known: ${[...KNOWN].join(', ')}`)
  return new Set(ids as FaultId[])
}
