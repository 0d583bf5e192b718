import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

// The project's own tests: unit tests beside the code (also beside the suites' helpers), and the integration
// tests in test/.
// The conformance suites have their own config (vitest.suites.config.ts), driven by the CLI.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'suites/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // vitest's default is one worker fewer than the cores: one on a 2-core CI machine. The condition runs
    // (test/conditions, one per file) mostly wait on a rate-limit window or a slow server, so they overlap;
    // three, not more, so the CPU-bound files (the CLI runs, the fault shards) keep most of a core.
    maxWorkers: Math.max(3, availableParallelism()),
    // Assembles the self-validation table and reports/mutation-report.md after the run.
    globalSetup: ['test/self-validation/summary.ts'],
  },
})
