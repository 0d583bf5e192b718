// The whole suite under every response 2 s (± 200 ms) late (src/selfcheck/conditions.ts).
import { conditionTest } from './harness.ts'

conditionTest('delay-2s')
