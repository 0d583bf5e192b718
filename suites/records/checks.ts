// §2 and §4.2: records read and written. Read-only first (one list page and one GET per collection), then the
// round trip of every creatable resource (plans.ts), then what servers add beyond §2.
import type { CheckDefinition } from '../../src/checks/index.ts'
import { PLANS } from './plans.ts'
import { extraFieldsCheck, readChecks } from './read.ts'
import { roundTripChecks } from './round-trip.ts'
import { unknownIdChecks } from './unknown-id.ts'
import { emptyTextChecks } from './empty-text.ts'

export const checks: CheckDefinition[] = [...readChecks, ...PLANS.flatMap(roundTripChecks), extraFieldsCheck, ...unknownIdChecks, ...emptyTextChecks]
