import { defineConfig } from 'vitest/config'
import { AreaSequencer } from './src/engine/area-sequencer.ts'

// The conformance suites. The CLI drives this config programmatically (crm-conformance run); running it by
// hand (npx vitest run --config vitest.suites.config.ts) reads the target from the environment / .env.
// One worker, not isolated: every suite file shares one session (one client, one pacer per key, one
// ledger). The checks of every area are scheduled together when the session opens (src/engine/runner.ts);
// the files follow one another, their tests awaiting their checks' results.
export default defineConfig({
  test: {
    include: ['suites/**/*.suite.ts'],
    pool: 'threads',
    maxWorkers: 1,
    isolate: false,
    fileParallelism: false,
    maxConcurrency: 8,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    teardownTimeout: 10_000,
    sequence: { sequencer: AreaSequencer },
  },
})
