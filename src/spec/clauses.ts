// The clause registry: every statement of the spec a server must honour, with its level and either the
// checks that cover it or the reason it cannot be tested from outside. A test fails when a MUST statement
// has neither, or names a check that does not exist.
import type { Level } from '../vocabulary.ts'

export interface Statement {
  /** Stable: `<clause>/<slug>`. */
  id: string
  clause: string
  level: Level
  /** The spec's words, shortened. */
  text: string
  /** Check ids or id prefixes ending in `*` that cover it. */
  checks?: string[]
  /** Why no check from outside the server can verify it. */
  untestable?: string
}

export const STATEMENTS: Statement[] = [
  // §1 rules for the whole API
  {
    id: '§1.1/application-rules',
    clause: '§1.1',
    level: 'MUST',
    text: 'Every endpoint follows the same rules as the application',
    untestable: "the application's rules are not visible through the API; only the rules the spec names are checked",
  },
  { id: '§1.2/key-scopes', clause: '§1.2', level: 'MUST', text: 'A key reaches only resources inside its scopes', checks: ['auth.scope.*'] },
  { id: '§1.4/money-integers', clause: '§1.4', level: 'MUST', text: 'Money is integer amounts in the smallest unit (*Sen)', checks: ['records.*'] },
  {
    id: '§1.6/comment-email',
    clause: '§1.6',
    level: 'MUST',
    text: 'A public case comment is emailed to the case contact',
    untestable: 'an outward effect: the email leaves the system; the suite cannot observe a mailbox',
  },
  {
    id: '§1.6/case-routing',
    clause: '§1.6',
    level: 'MUST',
    text: 'New cases are routed like any other case',
    untestable: "the routing rules are the workspace's and are not shown",
  },
  { id: '§1.6/lead-routing', clause: '§1.6', level: 'MUST', text: 'New leads are routed to a sales rep', checks: ['side-effects.lead.*'] },
  {
    id: '§1.6/message-channel',
    clause: '§1.6',
    level: 'MUST',
    text: "A message reply goes out through the conversation's channel",
    untestable: 'an outward effect on a real channel (email, chat) the suite cannot observe',
  },
  {
    id: '§1.6/quotation-approval',
    clause: '§1.6',
    level: 'MUST',
    text: 'Quotation approval rules still apply through the API',
    untestable: 'approval rules are configured per workspace and are not shown',
  },
  {
    id: '§1.6/recycle-bin',
    clause: '§1.6',
    level: 'MUST',
    text: 'Accounts and contacts move to a recycle bin on deletion (no longer returned)',
    checks: ['side-effects.recycle-bin.*'],
  },
  // §2 records
  { id: '§2/fields-present', clause: '§2', level: 'MUST', text: 'Every listed field is present in a returned record, with its type', checks: ['records.*'] },
  { id: '§2/write-only-hidden', clause: '§2', level: 'MUST', text: 'Writable-but-not-in-the-record fields are not returned', checks: ['records.*'] },
  {
    id: '§2/list-envelope',
    clause: '§2',
    level: 'MUST',
    text: 'A list returns { data, nextCursor } with nextCursor a string on every page',
    checks: ['records.*', 'pagination.cursor.string-on-every-page'],
  },
  { id: '§2/me', clause: '§2', level: 'MUST', text: "/me returns the workspace, the key's name and scopes, and the user", checks: ['discovery.me.*'] },
  // §3 states
  { id: '§3/drafts', clause: '§3', level: 'MUST', text: 'Quotations and invoices are created as drafts', checks: ['state.*'] },
  {
    id: '§3.1/quotation-draft-only',
    clause: '§3.1',
    level: 'MUST',
    text: 'A quotation can be replaced or deleted only while it is a draft',
    checks: ['state.*'],
  },
  { id: '§3.1/invoice-draft-only', clause: '§3.1', level: 'MUST', text: 'An invoice can be replaced only while it is a draft', checks: ['state.*'] },
  { id: '§3.2/order-from-accepted', clause: '§3.2', level: 'MUST', text: 'An order is created from an accepted quotation', checks: ['state.*'] },
  {
    id: '§3.3/enum-filters',
    clause: '§3.3',
    level: 'MUST',
    text: 'Status filters of opportunities, tasks, products and article visibility accept only the listed values',
    checks: ['filters.*'],
  },
  // §4 endpoints
  { id: '§4/json', clause: '§4', level: 'MUST', text: 'Bodies are JSON (Content-Type: application/json)', checks: ['invariants.json-bodies'] },
  { id: '§4.1/page-size', clause: '§4.1', level: 'MUST', text: 'limit is a page size of 1–100, default 25', checks: ['pagination.*'] },
  {
    id: '§4.1/cursor',
    clause: '§4.1',
    level: 'MUST',
    text: 'cursor is the nextCursor of the previous page; walking visits every record once',
    checks: ['pagination.*'],
  },
  {
    id: '§4.1/sort-order',
    clause: '§4.1',
    level: 'MUST',
    text: 'sort createdAt|updatedAt (default createdAt), order asc|desc (default desc)',
    checks: ['pagination.*'],
  },
  {
    id: '§4.1/since',
    clause: '§4.1',
    level: 'MUST',
    text: 'createdSince / updatedSince return only records created / changed after the time',
    checks: ['pagination.*'],
  },
  { id: '§4.1/get-by-id', clause: '§4.1', level: 'MUST', text: 'GET /<collection>/{id} returns the single record', checks: ['records.*'] },
  {
    id: '§4.1/idempotency-replay',
    clause: '§4.1',
    level: 'MUST',
    text: 'A retry with the same Idempotency-Key and body returns the first response and creates no duplicate',
    checks: ['idempotency.*'],
  },
  {
    id: '§4.1/idempotency-24h',
    clause: '§4.1',
    level: 'MUST',
    text: 'Idempotency keys are kept for 24 hours',
    untestable: 'a run lasts minutes; the replay within the run is checked, the 24-hour horizon is not',
  },
  {
    id: '§4.1/required-fields',
    clause: '§4.1',
    level: 'MUST',
    text: 'Fields marked required must be sent; a body failing validation gives the 400 of §7',
    checks: ['validation.*', 'bodies.*'],
  },
  { id: '§4.1/email-fields', clause: '§4.1', level: 'MUST', text: 'Email-type fields accept a string, null or an empty string', checks: ['validation.*'] },
  {
    id: '§4.2/operations',
    clause: '§4.2',
    level: 'MUST',
    text: 'Every path and operation of the table exists; get, create and update/replace return the record',
    checks: ['records.*'],
  },
  {
    id: '§4.2/no-other-writes',
    clause: '§4.2',
    level: 'MUST',
    text: 'No create, update or delete exists beyond what the table lists',
    checks: ['read-only.*'],
  },
  { id: '§4.3/filters', clause: '§4.3', level: 'MUST', text: 'Every list filter returns exactly the records with that meaning', checks: ['filters.*'] },
  {
    id: '§4.3/one-order-per-quotation',
    clause: '§4.3',
    level: 'SHOULD',
    text: 'The quoteId filter names "the order for this quotation": a quotation has one order',
    checks: ['state.order.second-refused'],
  },
  { id: '§4.4/bodies', clause: '§4.4', level: 'MUST', text: 'Write bodies: required fields, types and enums as listed', checks: ['validation.*', 'bodies.*'] },
  {
    id: '§4.4/opportunity-fixed-fields',
    clause: '§4.4',
    level: 'MUST',
    text: 'Pipeline, stage and currency are not updatable through the opportunity update',
    checks: ['side-effects.*'],
  },
  // §5 authentication
  { id: '§5.1/bearer', clause: '§5.1', level: 'MUST', text: 'The key is sent as Authorization: Bearer <key>', checks: ['auth.*', 'discovery.me.answers'] },
  {
    id: '§5.2/key-form',
    clause: '§5.2',
    level: 'INFO',
    text: 'A key has the form <KEY_PREFIX>_<workspace>_<secret>',
    untestable: 'keys are issued in the application; the suite only uses the keys it is given',
  },
  { id: '§5.3/owner-role', clause: '§5.3', level: 'MUST', text: "Calls are limited by the role of the key's owner", checks: ['auth.role.*'] },
  { id: '§5.3/ip-allowlist', clause: '§5.3', level: 'MUST', text: "Calls are limited by the key's IP allowlist", checks: ['auth.*'] },
  {
    id: '§5.4/scope-areas',
    clause: '§5.4',
    level: 'MUST',
    text: 'Scopes <area>:read|write; comments use cases, payments invoices, opportunities deals, articles knowledge',
    checks: ['auth.scope.*'],
  },
  { id: '§5.5/401', clause: '§5.5', level: 'MUST', text: 'A missing key or a key no longer valid gives 401', checks: ['auth.*'] },
  { id: '§5.6/403', clause: '§5.6', level: 'MUST', text: 'A call refused by scope, owner role or IP allowlist gives 403', checks: ['auth.*'] },
  { id: '§5.7/404', clause: '§5.7', level: 'MUST', text: 'A record the key cannot see gives 404, as if it did not exist', checks: ['auth.*', 'read-only.*'] },
  { id: '§5.8/per-key-limit', clause: '§5.8', level: 'MUST', text: 'Each key has its own per-minute request limit', checks: ['rate-limits.*'] },
  // §6 events
  {
    id: '§6.1/https',
    clause: '§6.1',
    level: 'MUST',
    text: 'Events are sent to an HTTPS endpoint with a whsec_ signing secret',
    untestable: 'the endpoint and secret are configured in the application; the sink accepts HTTPS and plain HTTP on loopback',
  },
  {
    id: '§6.2/kinds',
    clause: '§6.2',
    level: 'SHOULD',
    text: 'case.created and invoice.paid are emitted (which operation emits which is not shown)',
    checks: ['webhooks.*'],
  },
  { id: '§6.3/body', clause: '§6.3', level: 'MUST', text: 'Body { type, timestamp, data: { id, entityType, object, changes } }', checks: ['webhooks.*'] },
  {
    id: '§6.4/headers',
    clause: '§6.4',
    level: 'MUST',
    text: 'webhook-id (unique per event), webhook-timestamp (Unix seconds), webhook-signature',
    checks: ['webhooks.*'],
  },
  {
    id: '§6.5/signature',
    clause: '§6.5',
    level: 'MUST',
    text: 'HMAC-SHA256 over id.timestamp.body with the base64-decoded secret, base64, v1 entries',
    checks: ['webhooks.*'],
  },
  {
    id: '§6.6/tolerance',
    clause: '§6.6',
    level: 'MUST',
    text: 'Timestamps within 300 seconds of now; a repeated webhook-id is a repeat',
    checks: ['webhooks.*'],
  },
  { id: '§6.7/retries', clause: '§6.7', level: 'SHOULD', text: 'Any non-2xx answer leads to retries (with the same webhook-id)', checks: ['webhooks.*'] },
  // §7 errors
  {
    id: '§7.1/envelope',
    clause: '§7.1',
    level: 'MUST',
    text: 'Errors have one JSON shape { error: { code, message, details? } }',
    checks: ['invariants.error-envelope'],
  },
  {
    id: '§7.2/details',
    clause: '§7.2',
    level: 'MUST',
    text: 'details (present for invalid input) names each field to fix',
    checks: ['validation.*', 'bodies.*'],
  },
  { id: '§7.3/invalid-request', clause: '§7.3', level: 'MUST', text: 'Invalid or missing fields: 400 with code invalid_request', checks: ['validation.*'] },
  { id: '§7.4/401', clause: '§7.4', level: 'MUST', text: '401: key missing or no longer valid', checks: ['auth.*'] },
  { id: '§7.5/403', clause: '§7.5', level: 'MUST', text: '403: scope, owner role or IP allowlist does not allow the call', checks: ['auth.*'] },
  { id: '§7.6/404', clause: '§7.6', level: 'MUST', text: '404: record does not exist or is not visible to the key', checks: ['auth.*', 'read-only.*'] },
  {
    id: '§7.7/429',
    clause: '§7.7',
    level: 'MUST',
    text: '429 with RateLimit-Limit, RateLimit-Remaining (0), RateLimit-Reset and Retry-After',
    checks: ['rate-limits.*'],
  },
  // §8 limits
  {
    id: '§8/rate-headers',
    clause: '§8',
    level: 'MUST',
    text: 'RateLimit-Limit, -Remaining, -Reset on every response',
    checks: ['invariants.ratelimit-headers'],
  },
  { id: '§8/retry-after', clause: '§8', level: 'MUST', text: 'After waiting Retry-After seconds, calls succeed again', checks: ['rate-limits.*'] },
  {
    id: '§8/activity-body',
    clause: '§8',
    level: 'MUST',
    text: 'Activity body in records is a short preview of up to 500 characters',
    checks: ['side-effects.*'],
  },
  {
    id: '§8/webhook-retry-period',
    clause: '§8',
    level: 'SHOULD',
    text: 'Webhook retries go on for about 3½ days',
    untestable: 'a run lasts minutes; that a retry happens is checked, not its horizon',
  },
  { id: '§8/unshown-limits', clause: '§8', level: 'INFO', text: 'Maximum body size, line items and string lengths', untestable: 'not shown by the spec' },
  // §9 versioning
  {
    id: '§9.1/version-path',
    clause: '§9.1',
    level: 'MUST',
    text: 'The version is part of the path, under {base_url} or {workspace_url}/api',
    untestable: 'the suite is given one base address; it checks whichever the user gives, and the reference server is tested under both',
  },
  {
    id: '§9.2/incremental-sync',
    clause: '§9.2',
    level: 'MUST',
    text: 'Opaque cursors; incremental sync with updatedSince and sort=updatedAt',
    checks: ['pagination.*'],
  },
]
