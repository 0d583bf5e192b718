// Events (§6), enabled by CRM_WEBHOOK_SECRET: the run's deliveries reach the sink (session.sink()), which
// verifies and records each one. The correlation checks (which operation emits which event: SHOULD, §6 gaps)
// run first; the delivery rules (§6.3–§6.6: MUST) run last, over every delivery of the run.
import type { CheckDefinition } from '../../src/checks/types.ts'
import { correlationChecks } from './correlation.ts'
import { retryChecks } from './retry.ts'
import { ruleChecks } from './rules.ts'

export const checks: CheckDefinition[] = [...correlationChecks, ...retryChecks, ...ruleChecks]
