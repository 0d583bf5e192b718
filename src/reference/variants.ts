// One legal choice for every place the spec says "not shown". Handlers read the choice from this table; no
// handler compares variant names. The conformance suite must pass against every row.

export type VariantName = 'default' | 'alt-a' | 'alt-b' | 'alt-c' | 'alt-d' | 'alt-e' | 'alt-f'

export type BasePath = '/v1' | '/api/v1'

export interface ErrorChoice {
  status: number
  code: string
}

export interface Variant {
  name: VariantName
  /** The prefix advertised in `baseUrl` (§1: both are always served). */
  basePath: BasePath
  /** §4.1 "Success status codes … not shown". */
  createStatus: 200 | 201
  /** §4.1 "the response body of delete operations: not shown". */
  deleteReply: 'no-content-204' | 'record-200' | 'deleted-flag-200'
  /**
   * §4.1 "Value of nextCursor on the last page: not shown", but §2 types it a string: `""`, or a cursor leading to an
   * empty page that carries `""` or (kept) the cursor it was asked with.
   */
  lastPage: 'empty-string' | 'cursor-to-empty-page' | 'cursor-kept-on-empty-page'
  /** §7.7 `RateLimit-Reset`: seconds until the bucket is full, or the Unix time it will be. */
  rateLimitReset: 'delta-seconds' | 'unix-time'
  /** §7.2 `details[].path` naming a field: how a path made of segments is written. */
  detailPath: (segments: readonly string[]) => string
  /** What the id of a path is when it is not a uuid: unknown (404) or an invalid parameter (400). */
  nonUuidId: 'not-found-404' | 'invalid-400'
  /** §4.1 "the same Idempotency-Key … with a different body: not shown". */
  idempotencyMismatch: ErrorChoice | 'replay-first'
  /** §3 rules 1–2: a write the record's state does not allow (status and code not shown, §7.8). */
  stateRefusal: ErrorChoice
  /** §2 "Fields of the /v1/me response: not shown" (the scopes are: as a list, a string, or a map of area to access). */
  meShape: 'nested' | 'flat' | 'scope-map'
  /** §8 shows the header names only: `RateLimit-Limit: 600`, or with its window as older drafts write it (`600, 600;w=60`). */
  rateLimitLimit: 'plain' | 'with-window'
  /** §8 "Retry-After (seconds to wait)": whole seconds, or the HTTP date to wait until (RFC 9110 allows both). */
  retryAfter: 'delta-seconds' | 'http-date'
  /** §4.1 "Methods of the update … operations: not shown" (replace is always PUT). */
  updateMethod: 'PATCH' | 'PUT'
  /** PATCH or PUT on an item path that does not route it: 405 with Allow, or 404 as routers such as Express answer it. Absent: 405. */
  unroutedUpdate?: 'method-not-allowed-405' | 'not-found-404'
  /** §1.6 automation: tags the workspace adds to every created record that has tags. Absent: none. */
  addedTags?: readonly string[]
  /** §2 `custom` "keyed by field key": the workspace's custom fields, shown with these defaults unless written. Absent: none. */
  customDefaults?: Readonly<Record<string, unknown>>
  /** §2 contact fullName: composed from firstName and lastName whenever a write sets either to a name. Absent: kept as written. */
  composedFullName?: boolean
  /** A contact or lead created with the address of a live one of its kind (§7.8: statuses not shown). Absent: allowed. */
  duplicateEmail?: ErrorChoice
  /** A task whose remindAt is after its dueAt: refused with 400 naming remindAt. Absent: allowed. */
  reminderAfterDueRefused?: boolean
  /**
   * §4.4/§7 do not order a create's checks: a comment, payment or message naming a parent (case, invoice,
   * conversation) that does not exist gets a 404 before its other fields are validated. Absent: one 400 detail.
   */
  parentLookedUpFirst?: boolean
  /** §4.3 does not say what a filter naming a parent that does not exist gets: 404 instead of an empty list. Absent: empty list. */
  unknownParentFilter404?: boolean
  /**
   * §4.4 names no default for ownerId, a task's assigneeId or a deal's pipelineId (§1.6 routes only cases and
   * leads): left null unless written. Absent: the key's user, and the workspace's pipeline.
   */
  noUnnamedDefaults?: boolean
  /**
   * Any method on a path that does not route it (a write §4.2 does not list: POST, PATCH, PUT or DELETE): 404 as
   * many routers answer it, instead of 405 with Allow (§7.8: statuses not shown). Absent: 405 (or unroutedUpdate).
   */
  unroutedMethods?: 'not-found-404' | 'not-implemented-501'
  /** §4 "Bodies are JSON (Content-Type: application/json)": the media type with parameters. Absent: Hono's own. */
  jsonContentType?: string
  /**
   * §2 `date-time` leaves the precision open: write times kept in whole seconds (two writes in one second share
   * their time) and written without a fraction (`…T08:20:11Z`); the seeded records' times are cut the same way.
   * Absent: milliseconds, strictly increasing.
   */
  wholeSeconds?: boolean
  /** §8 leaves string lengths open: an activity body over the 500-character preview is refused (400 naming body), not cut. Absent: cut. */
  longActivityBodyRefused?: boolean
  /** Comment HTML with a script, an event handler or a javascript: URL is refused (400 naming html), not cleaned. Absent: cleaned. */
  unsafeHtmlRefused?: boolean
  /**
   * §4.4 marks the names and titles a create requires (`*`) but leaves blank text open: "" or white space in such a
   * field is refused (400 naming it) on create, update and replace, as ASP.NET's [Required] does. Absent: kept.
   */
  blankRequiredTextRefused?: boolean
  /** The media type of error answers (`application/problem+json`, a JSON type of RFC 9457). Absent: as other answers. */
  errorContentType?: string
  /** §4.1 "opaque cursor": base64url, or standard padded base64 (`+`, `/`, `=`: the client must percent-encode them). Absent: base64url. */
  cursorEncoding?: 'base64url' | 'base64'
  /** Every answer closes its connection (`Connection: close`), as some proxies and serverless hosts do. Absent: kept alive. */
  connectionClose?: boolean
  /**
   * Every body compressed with this coding whatever the request's Accept-Encoding says (a proxy in front of the
   * API; RFC 9110 §12.5.3 makes it a SHOULD NOT of HTTP, the spec says nothing). Absent: as sent.
   */
  compressAlways?: 'gzip' | 'br'
  /** §2 `date-time` is an ISO 8601 string: how a stored instant is written in records. Absent: `toISOString()` (ms, `Z`). */
  dateTime?: (iso: string) => string
  /** Fields §2 does not list beside those it does: in records, the list envelope and the error object. Absent: none. */
  extraFields?: boolean
  /**
   * §6.7 names no retry schedule ("retries for about 3½ days"): the wait before each retry of a non-2xx, in ms. A
   * retry within the second of the attempt before it carries the same webhook-timestamp, so it is byte for byte
   * that attempt. Absent: webhooks.ts WEBHOOK_DEFAULTS (a second and more apart).
   */
  webhookRetrySchedule?: readonly number[]
}

/** The default row's choices: alt-d, alt-e and alt-f start from them and name only the choices they make otherwise. */
const DEFAULT_CHOICES: Omit<Variant, 'name'> = {
  basePath: '/v1',
  createStatus: 201,
  deleteReply: 'no-content-204',
  lastPage: 'empty-string',
  rateLimitReset: 'delta-seconds',
  rateLimitLimit: 'plain',
  retryAfter: 'delta-seconds',
  // The body itself (malformed JSON, not an object) is `body`.
  detailPath: (s) => (s.length === 0 ? 'body' : s.join('.')),
  nonUuidId: 'not-found-404',
  idempotencyMismatch: { status: 409, code: 'idempotency_conflict' },
  stateRefusal: { status: 409, code: 'invalid_state' },
  meShape: 'nested',
  updateMethod: 'PATCH',
}

export const VARIANTS: Record<VariantName, Variant> = {
  default: { name: 'default', ...DEFAULT_CHOICES },
  'alt-a': {
    name: 'alt-a',
    basePath: '/v1',
    createStatus: 200,
    deleteReply: 'record-200',
    lastPage: 'empty-string',
    rateLimitReset: 'unix-time',
    rateLimitLimit: 'plain',
    retryAfter: 'delta-seconds',
    detailPath: (s) => (s.length === 0 ? '' : `/${s.map((x) => x.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`),
    nonUuidId: 'invalid-400',
    idempotencyMismatch: { status: 422, code: 'idempotency_conflict' },
    stateRefusal: { status: 422, code: 'invalid_state' },
    meShape: 'flat',
    updateMethod: 'PATCH',
  },
  'alt-b': {
    name: 'alt-b',
    basePath: '/api/v1',
    createStatus: 201,
    deleteReply: 'deleted-flag-200',
    lastPage: 'cursor-to-empty-page',
    rateLimitReset: 'delta-seconds',
    rateLimitLimit: 'plain',
    retryAfter: 'delta-seconds',
    detailPath: (s) => ['body', ...s].join('.'),
    nonUuidId: 'not-found-404',
    idempotencyMismatch: 'replay-first',
    stateRefusal: { status: 400, code: 'invalid_request' },
    meShape: 'nested',
    updateMethod: 'PUT',
    noUnnamedDefaults: true,
  },
  // Choices an independent implementation makes that the other rows do not: a refusal by the record's state
  // sent as 403 (the application forbids it, §1.1); the limit's window in RateLimit-Limit; Retry-After as a date;
  // update by PUT on an Express-like router (PATCH answers 404); workspace automation and rules: added tags,
  // custom field defaults, composed contact names, unique contact and lead addresses, reminders before due times.
  'alt-c': {
    name: 'alt-c',
    basePath: '/v1',
    createStatus: 201,
    deleteReply: 'no-content-204',
    lastPage: 'cursor-kept-on-empty-page',
    rateLimitReset: 'delta-seconds',
    rateLimitLimit: 'with-window',
    retryAfter: 'http-date',
    detailPath: (s) => (s.length === 0 ? 'body' : s.map((x, i) => (/^\d+$/.test(x) ? `[${x}]` : i === 0 ? x : `.${x}`)).join('')),
    nonUuidId: 'not-found-404',
    idempotencyMismatch: { status: 409, code: 'idempotency_conflict' },
    stateRefusal: { status: 403, code: 'forbidden' },
    meShape: 'scope-map',
    updateMethod: 'PUT',
    unroutedUpdate: 'not-found-404',
    addedTags: ['via-api'],
    customDefaults: { region: null },
    composedFullName: true,
    duplicateEmail: { status: 409, code: 'duplicate' },
    reminderAfterDueRefused: true,
    parentLookedUpFirst: true,
    unknownParentFilter404: true,
  },
  // Choices of a server on another stack: 404 for every method a path does not route (DELETE /orders/{id},
  // POST /articles), the JSON media type with its charset, a connection closed after every answer, bodies gzipped
  // by a proxy in front whatever the request asks, date-times
  // with microseconds and a `+00:00` offset (PostgreSQL's timestamptz), and fields of its own in records,
  // list envelopes and errors; webhooks retried at once and again 100 ms later (both within the second of the
  // attempt, so byte for byte the same), then after a second and more, as many senders' schedules begin.
  'alt-d': {
    ...DEFAULT_CHOICES,
    name: 'alt-d',
    unroutedMethods: 'not-found-404',
    jsonContentType: 'application/json; charset=utf-8',
    connectionClose: true,
    compressAlways: 'gzip',
    dateTime: (iso) => iso.replace(/\.(\d{3})Z$/, '.$1000+00:00'),
    extraFields: true,
    webhookRetrySchedule: [0, 100, 1000, 2000, 4000],
  },
  // Choices that differ from alt-d's: 501 for a method a path does not route, the media type's parameter
  // without a space and in capitals, errors as `application/problem+json`, cursors in padded standard base64,
  // bodies compressed with br whatever the request asks, date-times with nanoseconds in the workspace's zone
  // (`+08:00`, Malaysia); input refused that other rows clean up: an activity body past the preview's length,
  // comment HTML with a script in it, a blank name or title.
  'alt-e': {
    ...DEFAULT_CHOICES,
    name: 'alt-e',
    deleteReply: 'record-200',
    nonUuidId: 'invalid-400',
    unroutedMethods: 'not-implemented-501',
    jsonContentType: 'application/json;charset=UTF-8',
    errorContentType: 'application/problem+json',
    cursorEncoding: 'base64',
    compressAlways: 'br',
    dateTime: (iso) => inZone(iso, 8 * 60),
    longActivityBodyRefused: true,
    unsafeHtmlRefused: true,
    blankRequiredTextRefused: true,
  },
  // A store that keeps write times in whole seconds, as MySQL's DATETIME or a Unix-seconds column does, and
  // shows them without a fraction; besides, 200 on create and a deleted record's body, and a webhook sender whose
  // first retry comes only several seconds after a non-2xx (a queue polled every few seconds).
  'alt-f': {
    ...DEFAULT_CHOICES,
    name: 'alt-f',
    createStatus: 200,
    deleteReply: 'record-200',
    wholeSeconds: true,
    dateTime: (iso) => iso.replace(/\.\d+Z$/, 'Z'),
    webhookRetrySchedule: [4000, 4000, 8000],
  },
}

/** An ISO instant (ms, `Z`) written with nanoseconds in a fixed UTC offset (`…T08:20:11.123000000+08:00`): the same instant. */
function inZone(iso: string, offsetMinutes: number): string {
  const local = new Date(Date.parse(iso) + offsetMinutes * 60_000).toISOString().slice(0, -1)
  const sign = offsetMinutes < 0 ? '-' : '+'
  const abs = Math.abs(offsetMinutes)
  return `${local}000000${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

export const VARIANT_NAMES = Object.keys(VARIANTS) as VariantName[]

export function variantOf(name: VariantName = 'default'): Variant {
  const v = VARIANTS[name]
  if (!v) throw new Error(`Unknown reference server variant ${JSON.stringify(name)}; known: ${VARIANT_NAMES.join(', ')}`)
  return v
}
