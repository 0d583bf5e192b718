import { registerChecks } from '../../src/run/vitest-glue.ts'
import { checks } from './checks.ts'

registerChecks(checks)
