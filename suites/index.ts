// The catalogue: every check of every area, in run order. The vitest suite files register the same
// declarations; the in-process runner, `list`, the clause registry and certification read this list.
import type { CheckDefinition } from '../src/checks/index.ts'
import { checks as auth } from './auth/checks.ts'
import { checks as bodies } from './bodies/checks.ts'
import { checks as discovery } from './discovery/checks.ts'
import { checks as explore } from './explore/checks.ts'
import { checks as filters } from './filters/checks.ts'
import { checks as idempotency } from './idempotency/checks.ts'
import { checks as invariants } from './invariants/checks.ts'
import { checks as pagination } from './pagination/checks.ts'
import { checks as rateLimits } from './rate-limits/checks.ts'
import { checks as records } from './records/checks.ts'
import { checks as readOnly } from './read-only/checks.ts'
import { checks as sideEffects } from './side-effects/checks.ts'
import { checks as state } from './state/checks.ts'
import { checks as validation } from './validation/checks.ts'
import { checks as webhooks } from './webhooks/checks.ts'

/**
 * The suite areas, in run order, each with the checks of its folder: the one list the catalogue and the area
 * order come from. A new area is its folder (`checks.ts`, and `<area>.suite.ts` for the vitest route) and one
 * line here. `invariants` is last: it judges every exchange the others made.
 */
export const AREAS = [
  { area: 'discovery', checks: discovery },
  { area: 'records', checks: records },
  { area: 'bodies', checks: bodies },
  { area: 'pagination', checks: pagination },
  { area: 'filters', checks: filters },
  { area: 'validation', checks: validation },
  { area: 'read-only', checks: readOnly },
  { area: 'auth', checks: auth },
  { area: 'idempotency', checks: idempotency },
  { area: 'rate-limits', checks: rateLimits },
  { area: 'state', checks: state },
  { area: 'side-effects', checks: sideEffects },
  { area: 'webhooks', checks: webhooks },
  { area: 'explore', checks: explore },
  { area: 'invariants', checks: invariants },
] as const satisfies readonly { area: string; checks: CheckDefinition[] }[]

export type Area = (typeof AREAS)[number]['area']

export const AREA_ORDER: readonly Area[] = AREAS.map((a) => a.area)

export const catalogue: CheckDefinition[] = AREAS.flatMap((a) => a.checks)
