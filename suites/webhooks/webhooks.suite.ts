import { registerChecks } from '../../src/engine/vitest-glue.ts'
import { checks } from './checks.ts'

registerChecks(checks)
