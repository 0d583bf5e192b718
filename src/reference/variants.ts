// One legal choice for every place the spec says "not shown". Handlers read the choice from this table; no
// handler compares variant names. The conformance suite must pass against every row.

export type VariantName = 'default' | 'alt-a' | 'alt-b'

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
  /** §4.1 "Value of nextCursor on the last page: not shown". */
  lastPage: 'null' | 'empty-string' | 'cursor-to-empty-page'
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
  /** §2 "Fields of the /v1/me response: not shown". */
  meShape: 'nested' | 'flat'
  /** §4.1 "Methods of the update … operations: not shown" (replace is always PUT). */
  updateMethod: 'PATCH' | 'PUT'
}

export const VARIANTS: Record<VariantName, Variant> = {
  default: {
    name: 'default',
    basePath: '/v1',
    createStatus: 201,
    deleteReply: 'no-content-204',
    lastPage: 'null',
    rateLimitReset: 'delta-seconds',
    // The body itself (malformed JSON, not an object) is `body`.
    detailPath: (s) => (s.length === 0 ? 'body' : s.join('.')),
    nonUuidId: 'not-found-404',
    idempotencyMismatch: { status: 409, code: 'idempotency_conflict' },
    stateRefusal: { status: 409, code: 'invalid_state' },
    meShape: 'nested',
    updateMethod: 'PATCH',
  },
  'alt-a': {
    name: 'alt-a',
    basePath: '/v1',
    createStatus: 200,
    deleteReply: 'record-200',
    lastPage: 'empty-string',
    rateLimitReset: 'unix-time',
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
    detailPath: (s) => ['body', ...s].join('.'),
    nonUuidId: 'not-found-404',
    idempotencyMismatch: 'replay-first',
    stateRefusal: { status: 400, code: 'invalid_request' },
    meShape: 'nested',
    updateMethod: 'PUT',
  },
}

export const VARIANT_NAMES = Object.keys(VARIANTS) as VariantName[]

export function variantOf(name: VariantName = 'default'): Variant {
  const v = VARIANTS[name]
  if (!v) throw new Error(`Unknown reference server variant ${JSON.stringify(name)}; known: ${VARIANT_NAMES.join(', ')}`)
  return v
}
