/** The suite areas, in run order. `invariants` is last: it judges every exchange the others made. */
export const AREA_ORDER = [
  'discovery',
  'records',
  'bodies',
  'pagination',
  'filters',
  'validation',
  'read-only',
  'auth',
  'idempotency',
  'rate-limits',
  'state',
  'side-effects',
  'webhooks',
  'invariants',
] as const

export type Area = (typeof AREA_ORDER)[number]
