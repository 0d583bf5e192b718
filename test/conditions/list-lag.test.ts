// The whole suite under lists show a write 1.5 s late (src/selfcheck/conditions.ts).
import { conditionTest } from './harness.ts'

conditionTest('list-lag')
