// The whole suite under every request through a forward proxy (src/selfcheck/conditions.ts).
import { conditionTest } from './harness.ts'

conditionTest('proxy')
