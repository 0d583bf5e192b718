// The whole suite under idle keep-alive connections closed after 500 ms, 40 ms each way (src/selfcheck/conditions.ts).
import { conditionTest } from './harness.ts'

conditionTest('idle-close')
