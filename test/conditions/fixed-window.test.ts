// The whole suite under fixed one-minute windows at 600/min (src/selfcheck/conditions.ts).
import { conditionTest } from './harness.ts'

conditionTest('fixed-window')
