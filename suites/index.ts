// The catalogue: every check of every area, in run order. The vitest suite files register the same
// declarations; the in-process runner, `list`, the clause registry and certification read this list.
import type { CheckDefinition } from '../src/checks/types.ts'
import { checks as auth } from './auth/checks.ts'
import { checks as bodies } from './bodies/checks.ts'
import { checks as discovery } from './discovery/checks.ts'
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

export const catalogue: CheckDefinition[] = [...discovery, ...records, ...bodies, ...pagination, ...filters, ...validation, ...readOnly, ...auth, ...idempotency, ...rateLimits, ...state, ...sideEffects, ...webhooks, ...invariants]
