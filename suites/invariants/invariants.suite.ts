import { registerChecks } from '../../src/engine/vitest-glue.ts'
import { checks } from './checks.ts'

// The last suite file: it also closes the run's session (clean-up, statistics, embedded server).
registerChecks(checks, { closesSession: true })
