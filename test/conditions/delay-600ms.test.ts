// The whole suite under every response 600 ms (± 100) late (src/selfcheck/conditions.ts).
import { conditionTest } from './harness.ts'

conditionTest('delay-600ms')
