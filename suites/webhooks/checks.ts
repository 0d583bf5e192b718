// Events (§6), enabled by CRM_WEBHOOK_SECRET: the run's deliveries reach the sink (session.sink()), which
// verifies and records each one. The correlation checks (which operation emits which event: SHOULD, §6 gaps)
// run first; the delivery rules (§6.3–§6.6: MUST) run last, over the server's deliveries about the run's
// records; whatever else reached the sink is reported as noise (INFO).
import type { CheckDefinition } from '../../src/checks/index.ts'
import { acknowledgeChecks } from './acknowledge.ts'
import { correlationChecks } from './correlation.ts'
import { noiseChecks } from './noise.ts'
import { retryChecks } from './retry.ts'
import { ruleChecks } from './rules.ts'

export const checks: CheckDefinition[] = [...correlationChecks, ...retryChecks, ...acknowledgeChecks, ...ruleChecks, ...noiseChecks]
