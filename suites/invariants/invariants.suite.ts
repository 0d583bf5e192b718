// The run-wide invariants judge every exchange of a run: this file's run is one of every area, as the CLI's.
import { registerChecks } from '../../src/run/vitest-glue.ts'
import { catalogue } from '../index.ts'
import { checks } from './checks.ts'

registerChecks(checks, { runs: catalogue })
