// Named faults: each one a realistic implementer mistake, switched on by name to prove that some check fails.
// Adding a fault: one line at the end of FAULTS; its id in the `*_FAULTS` list of the module where the mistake
// would be made, and one `if (faults['<id>'])` there; the checks it must trip in src/selfcheck/fault-catches.ts
// (the server does not know the suite).
// Past ~400 lines on purpose: it is the catalogue, one entry per fault, read as a list.

export interface FaultInfo {
  id: string
  /** The mistake, as a reviewer would describe it. */
  description: string
  /** The suite area whose checks should catch it. */
  area: string
}

export const FAULTS = [
  { id: 'records.missing-updatedAt', area: 'records', description: 'Records are returned without their updatedAt field.' },
  { id: 'records.datetime-without-zone', area: 'records', description: 'Date-time fields are written without a zone (2025-01-01T10:00:00.000).' },
  {
    id: 'records.null-as-empty-string',
    area: 'records',
    description: 'Nullable strings and uuids that are null are sent as "" (a zero value serialised as is).',
  },
  { id: 'records.comment-html-escaped', area: 'records', description: "A comment's HTML is escaped instead of sanitised, so &lt;p&gt; shows as text." },
  {
    id: 'records.list-index-lag',
    area: 'records',
    description: 'Lists are served from a search index refreshed every 10 s: a record just created is missing from them.',
  },
  {
    id: 'records.change-not-persisted',
    area: 'records',
    description: 'An update or replace answers the changed record but never saves it: GET shows the old values.',
  },
  { id: 'records.updatedAt-not-bumped', area: 'records', description: 'updatedAt is set on insert only: an update or replace leaves it as it was.' },
  {
    id: 'records.write-only-echoed',
    area: 'records',
    description: 'The serialiser writes every column: write-only fields (backupOwnerId, items, recurrence…) appear in records.',
  },
  { id: 'records.deleted-still-readable', area: 'records', description: 'A delete is acknowledged (2xx) but never carried out: GET still answers 200.' },
  {
    id: 'bodies.create-drops-optional-fields',
    area: 'bodies',
    description: 'POST stores only the required fields (and tags); the optional fields sent are dropped and take their defaults.',
  },
  {
    id: 'bodies.update-resets-unsent-fields',
    area: 'bodies',
    description: 'An update is handled as a full write: every nullable field the body does not name is cleared to null.',
  },
  {
    id: 'bodies.replace-skips-nulls',
    area: 'bodies',
    description: 'A replace merges the body and skips its null values, so a field replaced by null keeps its old value.',
  },
  { id: 'bodies.write-answers-old-record', area: 'bodies', description: 'Update and replace answer with the record as it was loaded, before the write.' },
  {
    id: 'bodies.types-unchecked',
    area: 'bodies',
    description: 'Body validation only looks for missing required fields: wrong types, unlisted enum values and fractions pass.',
  },
  { id: 'pagination.default-limit-20', area: 'pagination', description: 'A list without limit returns 20 records, not 25.' },
  { id: 'pagination.repeat-boundary-record', area: 'pagination', description: 'The next page starts with the last record of the previous page.' },
  {
    id: 'pagination.skip-boundary-record',
    area: 'pagination',
    description: 'The next page starts one record too far, so a record at each page boundary is never listed.',
  },
  { id: 'pagination.limit-ignored', area: 'pagination', description: 'limit is validated but never applied: every page has the default size.' },
  {
    id: 'pagination.limit-clamped',
    area: 'pagination',
    description: 'A limit outside 1–100 is clamped into it, and one that does not parse keeps the default, instead of a 400.',
  },
  {
    id: 'pagination.bad-cursor-restarts',
    area: 'pagination',
    description: 'A cursor that does not decode starts the list again from the first page instead of a 400.',
  },
  { id: 'pagination.bad-sort-ignored', area: 'pagination', description: 'Unknown sort and order values fall back to the defaults instead of a 400.' },
  {
    id: 'pagination.bad-since-ignored',
    area: 'pagination',
    description: 'A createdSince or updatedSince that is not a date-time is ignored instead of a 400.',
  },
  {
    id: 'pagination.param-error-code',
    area: 'pagination',
    description: 'Bad list parameters answer 400 with the code bad_parameter instead of invalid_request.',
  },
  { id: 'pagination.sort-ignored', area: 'pagination', description: 'sort is validated but lists are always ordered by createdAt.' },
  { id: 'pagination.order-ignored', area: 'pagination', description: 'order is validated but lists always run newest first.' },
  { id: 'pagination.default-order-asc', area: 'pagination', description: 'Without order, lists run oldest first.' },
  {
    id: 'pagination.updatedSince-reads-createdAt',
    area: 'pagination',
    description: 'updatedSince is compared with createdAt, so a change to an older record is never synced.',
  },
  { id: 'filters.email-ignored', area: 'filters', description: 'The email filter is ignored: every record is returned.' },
  {
    id: 'filters.email-case-sensitive',
    area: 'filters',
    description: 'The email filter compares the address as stored, so a lower-case query misses Hello@Example.com.',
  },
  {
    id: 'filters.sku-lowercased',
    area: 'filters',
    description: 'The sku filter lower-cases its value like the email filter, then compares it with the stored SKU.',
  },
  {
    id: 'filters.mobile-plus-as-space',
    area: 'filters',
    description: "The mobile filter reads '+' as a form-encoded space and trims it, so no E.164 number ever matches.",
  },
  {
    id: 'filters.unimplemented-ignored',
    area: 'filters',
    description: 'Filters the server never implemented (accounts parentId, cases teamId, articles categoryId) are silently ignored.',
  },
  { id: 'filters.empty-result-404', area: 'filters', description: 'A filtered list that matches nothing answers 404 instead of 200 with an empty data array.' },
  {
    id: 'filters.unknown-uuid-unfiltered',
    area: 'filters',
    description:
      'A uuid filter is looked up first, and a value no record holds reaches the ORM as undefined, which drops the condition: every record is listed.',
  },
  {
    id: 'filters.enum-unvalidated',
    area: 'filters',
    description: 'Enumerated filters (status, visibility, direction, kind) take any value and answer an empty list for an unlisted one.',
  },
  {
    id: 'filters.direction-system-refused',
    area: 'filters',
    description: 'The message direction filter accepts in, out and note but refuses the listed value system.',
  },
  {
    id: 'read-only.unknown-id-200-null',
    area: 'read-only',
    description: "GET of an id no record has answers 200 with a null body (the ORM's null sent as is).",
  },
  { id: 'read-only.non-uuid-500', area: 'read-only', description: 'An id that is not a uuid reaches the database unchecked and answers 500.' },
  { id: 'read-only.create-everywhere', area: 'read-only', description: 'The generic router registers POST on every collection, so articles can be created.' },
  {
    id: 'read-only.update-everywhere',
    area: 'read-only',
    description: 'The generic router registers PATCH and PUT on every record path and answers 200 with the record.',
  },
  {
    id: 'read-only.delete-everywhere',
    area: 'read-only',
    description: 'The generic router registers DELETE on every record path, so comments, activities, products and invoices can be deleted.',
  },
  { id: 'validation.no-details', area: 'validation', description: 'A 400 for an invalid body has no details array.' },
  {
    id: 'validation.required-unchecked',
    area: 'validation',
    description: 'Required fields are not enforced: a create or replace without them is stored with defaults (or crashes).',
  },
  {
    id: 'validation.enums-unchecked',
    area: 'validation',
    description: 'Enumerated body fields (locale, priority, method, kind, source, status…) take any string.',
  },
  {
    id: 'validation.types-coerced',
    area: 'validation',
    description: 'Wrong JSON types are coerced as a form parser would: 12345 becomes "12345", "100" becomes 100, 12.5 becomes 12.',
  },
  {
    id: 'validation.reference-uuid-unchecked',
    area: 'validation',
    description: 'uuid body fields are not format-checked: a non-uuid reference reaches the database, whose uuid cast throws (500); others are stored as is.',
  },
  {
    id: 'validation.empty-email-refused',
    area: 'validation',
    description: 'Email fields are checked for an address format that does not allow the empty string of §4.1.',
  },
  {
    id: 'validation.body-unguarded-500',
    area: 'validation',
    description: 'The body is parsed without a guard: malformed JSON, or an array or string body, ends in a 500.',
  },
  { id: 'auth.missing-key-403', area: 'auth', description: 'A request without a key answers 403 instead of 401.' },
  {
    id: 'auth.malformed-header-400',
    area: 'auth',
    description: 'An Authorization header that is not `Bearer <token>` (no token, another scheme) is answered 400 invalid_request, not 401.',
  },
  {
    id: 'auth.prefix-not-checked',
    area: 'auth',
    description: 'Keys are looked up by workspace and secret; the prefix is never compared, so the key works under any prefix.',
  },
  { id: 'auth.secret-not-compared', area: 'auth', description: 'A key of the right form naming a known workspace is accepted without comparing its secret.' },
  { id: 'auth.garbage-key-500', area: 'auth', description: 'A bearer token that is not key-shaped breaks the key parser: 500 instead of 401.' },
  { id: 'auth.revocation-ignored', area: 'auth', description: 'A revoked key still works: revocation is never checked on a call.' },
  { id: 'auth.any-scheme', area: 'auth', description: "The key is taken from the header's second word whatever the scheme, so `Basic <key>` works." },
  { id: 'auth.scopes-ignored', area: 'auth', description: 'Scopes are not enforced: any valid key may call anything.' },
  { id: 'auth.comments-own-scope', area: 'auth', description: 'Comments need comments:read/write scopes of their own instead of the cases scopes (§5.4).' },
  {
    id: 'auth.scope-checked-after-write',
    area: 'auth',
    description: 'A create checks the scope after writing: the key without the scope gets 403, and the record exists.',
  },
  { id: 'auth.ip-allowlist-ignored', area: 'auth', description: "A key's IP allowlist is stored but never compared with the caller's address." },
  { id: 'auth.item-any-workspace', area: 'auth', description: "Get, update and delete by id look the id up in every workspace, not only the key's." },
  {
    id: 'auth.foreign-record-403',
    area: 'auth',
    description: "Get, update and delete by id answer 403 for another workspace's record (404 for an id that names nothing), telling the caller it exists.",
  },
  { id: 'auth.list-any-workspace', area: 'auth', description: "An unfiltered list returns every workspace's records." },
  {
    id: 'auth.filtered-list-any-workspace',
    area: 'auth',
    description: "A filtered list drops the workspace condition: another workspace's records match the filter.",
  },
  { id: 'auth.unknown-id-500', area: 'auth', description: 'A get by a well-formed id that no record has dereferences the missing record: 500 instead of 404.' },
  { id: 'idempotency.ignored', area: 'idempotency', description: 'Idempotency-Key is ignored: every retry creates another record.' },
  { id: 'idempotency.replay-status-200', area: 'idempotency', description: 'A replay answers a plain 200 where the first create answered 201.' },
  {
    id: 'idempotency.replay-also-creates',
    area: 'idempotency',
    description: 'The create runs before the Idempotency-Key is looked up: the first response is replayed, and a duplicate is stored.',
  },
  {
    id: 'idempotency.keyed-by-body',
    area: 'idempotency',
    description: 'Replays are found by the body alone: the same body under another Idempotency-Key returns the first record.',
  },
  {
    id: 'idempotency.shared-across-keys',
    area: 'idempotency',
    description: "Replays are stored per Idempotency-Key only, not per API key: another key (another workspace) gets the first key's record.",
  },
  { id: 'ratelimit.no-headers-on-errors', area: 'ratelimit', description: 'RateLimit-* headers are missing on 4xx responses.' },
  { id: 'rate-limits.remaining-stuck', area: 'rate-limits', description: 'RateLimit-Remaining always reports the full limit.' },
  { id: 'rate-limits.headers-swapped', area: 'rate-limits', description: 'RateLimit-Limit and RateLimit-Remaining are swapped.' },
  { id: 'rate-limits.reset-iso-date', area: 'rate-limits', description: 'RateLimit-Reset is an ISO 8601 timestamp, not a number of seconds.' },
  { id: 'rate-limits.no-429', area: 'rate-limits', description: 'The per-key limit is announced in the headers but never enforced.' },
  { id: 'rate-limits.429-without-retry-after', area: 'rate-limits', description: 'The 429 has no Retry-After header.' },
  {
    id: 'rate-limits.429-plain-text',
    area: 'rate-limits',
    description: 'The 429 is written by a middleware default: `Too Many Requests` as text, without the error envelope.',
  },
  {
    id: 'rate-limits.429-without-ratelimit-headers',
    area: 'rate-limits',
    description: 'The 429 carries Retry-After only: RateLimit-* are set by the handler a refused call never reaches.',
  },
  {
    id: 'rate-limits.retry-after-fixed-1s',
    area: 'rate-limits',
    description: "Retry-After is always 1 second, whatever the limiter's real wait: a client that waits that long is refused again.",
  },
  { id: 'rate-limits.retry-after-milliseconds', area: 'rate-limits', description: 'Retry-After is written in milliseconds.' },
  {
    id: 'rate-limits.hidden-burst-limit',
    area: 'rate-limits',
    description:
      'Besides the per-minute limit, a burst cap that no header announces refuses a key past 100 calls in a second, while RateLimit-Remaining still shows the quota.',
  },
  { id: 'state.replace-non-draft', area: 'state', description: 'A quotation or invoice that is no longer a draft can still be replaced.' },
  { id: 'state.created-not-draft', area: 'state', description: 'Quotations and invoices are created with status open instead of draft.' },
  {
    id: 'state.delete-non-draft',
    area: 'state',
    description: 'A quotation that is no longer a draft can still be deleted: the draft rule guards replace only.',
  },
  {
    id: 'state.refused-write-saved',
    area: 'state',
    description: 'A replace of a non-draft record is saved before the draft rule is checked: the answer refuses it, the record has changed.',
  },
  { id: 'state.drafts-locked', area: 'state', description: 'The draft rule tests the wrong way round for drafts: replace and delete refuse drafts too.' },
  { id: 'state.order-from-any-quotation', area: 'state', description: 'An order can be created from a quotation in any state, a draft included.' },
  {
    id: 'state.order-accepted-refused',
    area: 'state',
    description: "Order creation compares the quotation's status with the wrong name (approved) and refuses accepted quotations.",
  },
  { id: 'state.order-total-before-tax', area: 'state', description: "An order copies the quotation's grossSen (before discount and tax) as its totalSen." },
  { id: 'state.payment-not-applied', area: 'state', description: "A payment is recorded but the invoice's paidSen is not raised." },
  {
    id: 'side-effects.recycle-bin-still-visible',
    area: 'side-effects',
    description: 'Deleting an account or contact only flags it for the recycle bin: GET and lists still return it.',
  },
  { id: 'side-effects.contact-account-ignored', area: 'side-effects', description: "A contact's accountId on create is dropped: primaryAccountId stays null." },
  { id: 'side-effects.lead-not-routed', area: 'side-effects', description: 'New leads created without ownerId stay without an owner.' },
  {
    id: 'side-effects.comment-unsanitised',
    area: 'side-effects',
    description: 'Comment HTML is stored as sent, scripts, event handlers and javascript: links included.',
  },
  { id: 'side-effects.activity-body-uncut', area: 'side-effects', description: 'An activity body is stored and returned whole, past 500 characters.' },
  {
    id: 'side-effects.opportunity-fixed-fields-updatable',
    area: 'side-effects',
    description: 'The opportunity update applies pipelineId, stageKey and currency like any other field.',
  },
  { id: 'webhooks.hex-signature', area: 'webhooks', description: 'The webhook signature is hex, not base64.' },
  {
    id: 'webhooks.raw-secret-key',
    area: 'webhooks',
    description: 'The HMAC key is the text of the whole `whsec_…` secret, not the base64-decoded bytes after the prefix.',
  },
  { id: 'webhooks.timestamp-ms', area: 'webhooks', description: 'webhook-timestamp is Date.now(): milliseconds, not Unix seconds.' },
  {
    id: 'webhooks.svix-headers',
    area: 'webhooks',
    description: 'The headers are named svix-id, svix-timestamp and svix-signature (copied from a Svix example), not webhook-*.',
  },
  { id: 'webhooks.flat-body', area: 'webhooks', description: "The body's data is the record itself: no entityType, object or changes." },
  { id: 'webhooks.entity-type-plural', area: 'webhooks', description: 'data.entityType is the table name (cases, invoices), not the entity (case).' },
  {
    id: 'webhooks.id-per-entity',
    area: 'webhooks',
    description: 'webhook-id is derived from the record id, so every event of one record (created, updated, paid…) carries the same id.',
  },
  {
    id: 'webhooks.retry-new-id',
    area: 'webhooks',
    description: 'Each retry is sent as a new message with a fresh webhook-id, so receivers cannot ignore the repeat.',
  },
  { id: 'webhooks.never-retries', area: 'webhooks', description: 'A non-2xx acknowledgement is logged and dropped: the event is never delivered again.' },
  { id: 'webhooks.no-case-created', area: 'webhooks', description: 'Cases created through the API emit no case.created event.' },
  { id: 'webhooks.no-invoice-paid', area: 'webhooks', description: 'Paying an invoice in full emits invoice.updated but never invoice.paid.' },
  {
    id: 'discovery.me-double-encoded',
    area: 'discovery',
    description: 'The /me handler stringifies its body before c.json, which encodes it again: a JSON string, not an object.',
  },
  {
    id: 'pagination.limit-uncapped',
    area: 'pagination',
    description: 'limit is checked against its lower bound only, so limit=101 and above return pages past 100 (in a workspace of 120 more users).',
  },
  {
    id: 'pagination.order-case-sensitive',
    area: 'pagination',
    description: "order is compared with the ORM's constant 'DESC', so an explicit order=desc sorts oldest first.",
  },
  {
    id: 'pagination.createdSince-ignored',
    area: 'pagination',
    description: 'createdSince is validated but never passed on to the query: records created before it are listed.',
  },
  {
    id: 'filters.first-match-dropped',
    area: 'filters',
    description: "A filtered list's offset is counted from 1: the first page of a filtered list misses its first matching record.",
  },
  {
    id: 'filters.index-not-backfilled',
    area: 'filters',
    description: 'Filtered lists query a search index that was switched on without a backfill: no filter finds a record older than the index.',
  },
  {
    id: 'filters.enum-last-value-refused',
    area: 'filters',
    description: "Each enum filter's allow-list is sliced with an off-by-one end, so its last listed value is refused with 400.",
  },
  {
    id: 'read-only.delete-stub-204',
    area: 'read-only',
    description: 'The read-only collections got a DELETE stub that answers 204 without looking the record up.',
  },
  {
    id: 'read-only.user-writes-unscoped',
    area: 'read-only',
    description: 'POST, PATCH and PUT on users are routed to generic handlers that skip the scope check (no key holds users:write), and succeed.',
  },
  {
    id: 'auth.scopes-split-on-commas',
    area: 'auth',
    description:
      "A key's custom scope list is stored space-separated but read back split on commas: the restricted key holds one unusable scope, so calls inside its scopes are refused.",
  },
  {
    id: 'invariants.framework-default-errors',
    area: 'invariants',
    description: "Unknown paths and wrong methods are answered by the framework's defaults: 404 Not Found and 405 Method Not Allowed as plain text.",
  },
  { id: 'invariants.json-as-text', area: 'invariants', description: 'A response wrapper sets every Content-Type to text/plain, JSON bodies included.' },
  // Issue 18: what independent implementations got wrong and the suite let through.
  {
    id: 'pagination.last-page-cursor-null',
    area: 'pagination',
    description: 'The last page of a list sends nextCursor: null, as the ORM returns no next position.',
  },
  {
    id: 'pagination.last-page-cursor-absent',
    area: 'pagination',
    description: 'The last page of a list leaves nextCursor out (the serialiser drops undefined fields).',
  },
  { id: 'discovery.me-without-scopes', area: 'discovery', description: "GET /me shows the workspace, the key's name and the user, but not the key's scopes." },
  {
    id: 'pagination.since-includes-bound',
    area: 'pagination',
    description: 'createdSince and updatedSince compare with >=, so the record created or changed at the bound itself is listed.',
  },
  {
    id: 'state.second-order-accepted',
    area: 'state',
    description: 'The one-order-per-quotation rule is left to the client: a second POST /orders for the same accepted quotation makes another order.',
  },
  {
    id: 'auth.owner-role-ignored',
    area: 'auth',
    description: "Only the key's scopes are checked: a key with every scope does what its owner's role may not (§5.3 b).",
  },
  {
    id: 'auth.owner-role-checked-after-write',
    area: 'auth',
    description: "The owner's role is checked by an after-save hook: a create the role may not make answers 403, but the record is written.",
  },
  {
    id: 'auth.role-overreach-read-only',
    area: 'auth',
    description: "A key whose scopes exceed its owner's role is made read-only as a whole, instead of refusing only what the role may not do.",
  },
  // Issue 18 items 2 and 4: exact filters that match approximately; Idempotency-Key honoured on one collection only.
  {
    id: 'filters.exact-substring',
    area: 'filters',
    description:
      "The string filters are a LIKE '%value%' in the filter's folded form: an email, SKU, mobile or tier that merely contains the queried value is returned.",
  },
  {
    id: 'filters.exact-case-insensitive',
    area: 'filters',
    description: 'Exact string filters (tier, status, stage key, kind) compare ignoring case, as a case-insensitive collation does.',
  },
  {
    id: 'idempotency.ignored-on-payments',
    area: 'idempotency',
    description: 'POST /payments never looks at the Idempotency-Key (the payment service was written apart): a retry records the payment twice.',
  },
  {
    id: 'idempotency.replay-returns-current',
    area: 'idempotency',
    description: 'A replay keeps only the id of the first record and reads it again, so a record changed since comes back as it is now.',
  },
  {
    id: 'webhooks.kind-own-style',
    area: 'webhooks',
    description:
      "Event kinds other than the two the spec names are written in the code base's own style (AccountCreated, InvoiceUpdated), not <entity>.<action>.",
  },
  {
    id: 'webhooks.kind-table-name',
    area: 'webhooks',
    description: 'Event kinds are built from the table name (cases.created, invoices.paid) while data.entityType names the entity (case).',
  },
  {
    id: 'webhooks.ack-200-only',
    area: 'webhooks',
    description: 'Only a 200 answer counts as delivered: a receiver answering 202 or 204 gets the event again.',
  },
  // Issue 25 (§4.1, §4.3, §9): two rules of a list at once.
  {
    id: 'pagination.limit-capped-50',
    area: 'pagination',
    description: "A page size above 50 is served as 50 (the ORM's own maximum page size), although §4.1 allows up to 100.",
  },
  {
    id: 'pagination.cursor-drops-filter',
    area: 'pagination',
    description: 'The next page is read from the cursor alone: its position is kept, the filters of the query are dropped after the first page.',
  },
  {
    id: 'pagination.cursor-ignores-sort',
    area: 'pagination',
    description:
      'A later page is read in createdAt order from the cursor position, whatever sort the cursor was issued for (sort=updatedAt holds on the first page only).',
  },
  {
    id: 'pagination.since-offset-ignored',
    area: 'pagination',
    description: 'createdSince and updatedSince are read as UTC wall time: a zone offset other than Z (+08:00, -05:30) is dropped instead of applied.',
  },
  {
    id: 'filters.only-first-filter',
    area: 'pagination',
    description:
      'Of several filters in one query only the first is applied (the query builder overwrites its where clause with each filter but keeps the first).',
  },
  {
    id: 'filters.only-last-filter',
    area: 'pagination',
    description: 'Of several filters in one query only the last is applied (each filter replaces the where clause instead of adding to it).',
  },
  {
    id: 'filters.exact-like-wildcards',
    area: 'filters',
    description:
      'Exact string filters are a LIKE (ILIKE for the email and SKU filters) on the value as sent, unescaped: % and _ (and * turned into %) in the value match any text.',
  },
  {
    id: 'filters.uuid-any-column',
    area: 'filters',
    description: 'A uuid filter matches a record holding the id in any of its id columns (a generic "related to" search), not only in the filtered field.',
  },
  {
    id: 'pagination.limit-off-by-one',
    area: 'pagination',
    description: 'The page size is checked with <= 101 (an off-by-one upper bound): limit=101 is served, a page of 101 records.',
  },
  // Issue 25 (guards, per key, per request, every part of a clause).
  {
    id: 'discovery.me-without-workspace',
    area: 'discovery',
    description: 'GET /me shows the key (name, scopes) and its user, but not the workspace they belong to.',
  },
  { id: 'discovery.me-without-key-name', area: 'discovery', description: 'GET /me shows the key by an internal id and its scopes, not the name it was given.' },
  { id: 'discovery.me-without-user', area: 'discovery', description: 'GET /me describes the workspace and the key, not the user the key acts as.' },
  {
    id: 'records.put-upserts',
    area: 'records',
    description: 'PUT to an id that names nothing creates the record under that id (an upsert) instead of answering 404.',
  },
  {
    id: 'records.delete-unknown-204',
    area: 'records',
    description: 'DELETE is a `DELETE … WHERE id = ?` whose row count is never read: an id that names nothing answers 204 too.',
  },
  {
    id: 'records.update-unknown-200',
    area: 'records',
    description: 'An update is an `UPDATE … WHERE id = ?` whose row count is never read: an id that names nothing answers 200 with the fields sent.',
  },
  {
    id: 'idempotency.mismatch-overwrites-first',
    area: 'idempotency',
    description:
      'A reused Idempotency-Key with another body is taken for a new request whose response replaces the stored one: a retry of the first request no longer gets the first response.',
  },
  {
    id: 'auth.delete-checks-read-scope',
    area: 'auth',
    description: "A delete is guarded by the area's read scope (its route was copied from the get's): a key that may only read deletes.",
  },
  {
    id: 'auth.revoked-key-accepted-on-me',
    area: 'auth',
    description: 'GET /me looks the key up itself, without the revocation check every other call has: a revoked key is told it works.',
  },
  {
    id: 'auth.ip-allowlist-get-only',
    area: 'auth',
    description: "A key's IP allowlist is compared on GET only: from outside it, the key still creates, updates and deletes.",
  },
  {
    id: 'rate-limits.limit-header-server-default',
    area: 'rate-limits',
    description: "The RateLimit-* headers are written from the server's default limit (600) less the key's use, while the key's own lower limit is enforced.",
  },
  {
    id: 'rate-limits.bucket-per-workspace',
    area: 'rate-limits',
    description: 'The limiter keeps one bucket per workspace: every key of a workspace spends the same allowance, each capped at its own limit.',
  },
  {
    id: 'validation.object-fields-accept-arrays',
    area: 'validation',
    description: "Object fields (custom, address, fields, options, recurrence, each line item) are checked with typeof x === 'object', so an array passes.",
  },
  { id: 'validation.first-error-only', area: 'validation', description: 'Validation stops at the first invalid field: details name only that one.' },
  {
    id: 'validation.dates-unchecked',
    area: 'validation',
    description: 'Date and date-time inputs take any string ("tomorrow", "2026-13-45", "2026-02-30"), stored as sent.',
  },
  {
    id: 'state.replace-refused-only-when-sent',
    area: 'state',
    description: "The draft rule of replace checks status === 'sent': accepted, declined, paid or void quotations and invoices can be replaced.",
  },
  {
    id: 'state.delete-refused-only-when-sent',
    area: 'state',
    description: "The draft rule of delete checks status === 'sent': an accepted or declined quotation can be deleted.",
  },
  {
    id: 'state.order-refused-only-from-draft',
    area: 'state',
    description: "An order is refused only for a draft quotation (status !== 'draft'): a sent, undecided one takes an order.",
  },
  {
    id: 'state.create-body-status-honoured',
    area: 'state',
    description: 'A status sent in the create body of a quotation or invoice is stored: it is created sent, accepted or paid.',
  },
  {
    id: 'validation.date-time-zulu-only',
    area: 'validation',
    description: 'Date-time inputs are parsed with a pattern ending in Z: an ISO 8601 offset such as +08:00 is refused as invalid.',
  },
  {
    id: 'validation.create-saved-before-validation',
    area: 'validation',
    description: 'A create inserts the record before validating the body: the answer is the 400, and the record made from the invalid body stays.',
  },
  {
    id: 'validation.change-saved-before-validation',
    area: 'validation',
    description: 'An update or replace saves the body before validating it: the answer is the 400, and the record holds the invalid values.',
  },
  {
    id: 'read-only.delete-removes-then-404',
    area: 'read-only',
    description:
      'DELETE on the collections §4.2 gives no delete reaches a catch-all handler that removes the record by id, then falls through to the router, which answers 404.',
  },
  {
    id: 'validation.scalar-body-as-empty',
    area: 'validation',
    description: 'A body that is JSON but not an object (42, "x", true, null) is read as {}: a create whose fields are all optional makes a record of it.',
  },
  {
    id: 'idempotency.retention-seconds',
    area: 'idempotency',
    description:
      'The Idempotency-Key store keeps entries 24 seconds, not 24 hours (a unit mistake in the TTL): a retry a minute later creates a second record.',
  },
  {
    id: 'webhooks.body-without-data',
    area: 'webhooks',
    description: 'The event is serialised before its data is attached: every delivery is signed but its body is { type, timestamp }, naming no record.',
  },
  {
    id: 'records.empty-text-as-null',
    area: 'records',
    description:
      'The body binder turns blank strings into null after validation (ASP.NET ConvertEmptyStringToNull, a nilify-blanks hook): text written "" is stored null, even where §2 types it non-null.',
  },
  {
    id: 'auth.me-anonymous-without-key',
    area: 'auth',
    description:
      'The key check lists GET /me among its public paths (a "whoami" that also serves signed-out callers): a request without a valid key is answered 200 with an anonymous profile, not 401.',
  },
  {
    id: 'auth.me-401-not-envelope',
    area: 'auth',
    description: 'GET /me ("check a key") answers an invalid key with 401 and its own verdict body { valid: false, reason }, not the error envelope of §7.1.',
  },
  {
    id: 'auth.ip-allowlist-skips-me',
    area: 'auth',
    description: 'The IP allowlist is not compared on GET /me (so that a key "can be checked from anywhere"): from outside it, /me shows the key\'s profile.',
  },
  {
    id: 'validation.array-body-first-element',
    area: 'validation',
    description:
      'A JSON array body is read as its first element (a binder shared with batch endpoints, `Array.isArray(b) ? b[0] : b`): an array holding a valid body creates or changes a record.',
  },
  {
    id: 'validation.create-email-not-nullable',
    area: 'validation',
    description:
      'The create schema types email fields as an address or "" but not null (the update schema was written nullable, the create one copied from the address check): a create with email null is refused.',
  },
  {
    id: 'filters.single-quoted-sql',
    area: 'filters',
    description:
      "A string filter's value is pasted into a '-quoted SQL literal: a ' in it is a syntax error (500), or with a tail OR 'a'='a matches every record.",
  },
  {
    id: 'filters.double-quoted-sql',
    area: 'filters',
    description: 'A string filter\'s value is pasted into a "-quoted SQL literal (MySQL\'s default): a " in it is a syntax error (500).',
  },
  {
    id: 'pagination.cursor-drops-createdSince',
    area: 'pagination',
    description: 'A later page is rebuilt from its cursor, which does not hold createdSince: the bound holds on the first page only.',
  },
  {
    id: 'pagination.cursor-drops-order',
    area: 'pagination',
    description: 'The cursor keeps the sort and position but not the direction: a later page of order=asc is read newest first from the position.',
  },
  {
    id: 'pagination.sort-per-page',
    area: 'pagination',
    description:
      'An asked sort is applied in memory to each page: later pages are cut at an offset from the unsorted scan, so each page is in order and the list is not.',
  },
  // Issue 39: only first pages of that collection were read whole.
  {
    id: 'pagination.contacts-last-page-cursor-absent',
    area: 'pagination',
    description:
      'The contacts list has a serialiser of its own that drops undefined fields: its last page leaves nextCursor out, while accounts (the list walked by hand) sends it.',
  },
  // Issue 39: only a walk with writes between its pages tells an offset from a position.
  {
    id: 'pagination.offset-cursor',
    area: 'pagination',
    description:
      'The cursor holds an offset into the filtered, sorted list, not the position of the last record shown: a delete between pages skips a record that was never touched, a create ahead of the cursor shows one twice.',
  },
  // Issue 39: a replace that merges like an update; only a replace leaving a field out shows it.
  {
    id: 'bodies.replace-merges-partial',
    area: 'bodies',
    description:
      'A replace is validated as a create and merged like an update: a body that leaves fields out is accepted, and the fields it leaves out keep their old values (§4.2 "send every field").',
  },
  // Issue 39: only a create, then an update that does not name the field, then a read shows it.
  {
    id: 'bodies.update-applies-create-defaults',
    area: 'bodies',
    description:
      "An update of a case, lead or opportunity runs the create path's defaults over the fields its body does not name: a case's description becomes '', a lead's source 'api', a deal's amountSen 0.",
  },
] as const satisfies readonly FaultInfo[]

export type FaultId = (typeof FAULTS)[number]['id']

/**
 * The faults switched on for one server: one boolean per fault of the catalogue. A module reads the switches
 * of the mistakes it can make, `faults['<id>']`, where the mistake would be made; a misspelt id is a compile error.
 */
export type FaultSwitches = Readonly<Record<FaultId, boolean>>

/** The switches one module reads: the ids it declares (its `*_FAULTS` list), so its code can read no other. */
export type SwitchesOf<Ids extends readonly FaultId[]> = Readonly<Record<Ids[number], boolean>>

const KNOWN: ReadonlySet<string> = new Set(FAULTS.map((f) => f.id))

/** Throws on an unknown id, naming the known ones: a typo must not silently test nothing. */
export function faultSwitches(ids: readonly string[] = []): FaultSwitches {
  const unknown = ids.filter((id) => !KNOWN.has(id))
  if (unknown.length > 0) throw new Error(`Unknown fault id(s): ${unknown.join(', ')}. Known: ${[...KNOWN].join(', ')}`)
  return Object.fromEntries(FAULTS.map((f) => [f.id, ids.includes(f.id)])) as Record<FaultId, boolean>
}

/** Every switch off: the conformant server. */
export const NO_FAULTS: FaultSwitches = faultSwitches()

/** The ids switched on, in catalogue order. */
export function switchedOn(faults: FaultSwitches): FaultId[] {
  return FAULTS.map((f) => f.id).filter((id) => faults[id])
}
