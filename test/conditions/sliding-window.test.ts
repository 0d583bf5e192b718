// The whole suite under a sliding one-minute window at 600/min (src/selfcheck/conditions.ts).
import { conditionTest } from './harness.ts'

conditionTest('sliding-window')
