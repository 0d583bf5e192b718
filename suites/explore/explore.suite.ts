// The explore area's checks as vitest tests against CRM_BASE_URL (src/run/vitest-glue.ts); the CLI does not use it.
import { registerChecks } from '../../src/run/vitest-glue.ts'
import { checks } from './checks.ts'

registerChecks(checks)
