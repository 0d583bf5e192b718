// Behavioural side effects (§1.6) and rules the record keeps after a write (§2, §4.4, §8).
import type { CheckDefinition } from '../../src/checks/index.ts'
import { activityChecks } from './activity.ts'
import { commentChecks } from './comment.ts'
import { contactAccountChecks } from './contact-account.ts'
import { leadChecks } from './lead-routing.ts'
import { opportunityChecks } from './opportunity.ts'
import { recycleBinChecks } from './recycle-bin.ts'

export const checks: CheckDefinition[] = [
  ...recycleBinChecks,
  ...contactAccountChecks,
  ...leadChecks,
  ...commentChecks,
  ...activityChecks,
  ...opportunityChecks,
]
