// The whole suite under a token bucket at 600/min (src/selfcheck/conditions.ts).
import { conditionTest } from './harness.ts'

conditionTest('token-bucket')
