import { defineConfig } from 'vitest/config'

// The conformance suites as vitest tests, for users who want them inside their own vitest runs:
//   npx vitest run --config vitest.suites.config.ts [suites/<area>/]
// Each suite file is one run of its area against CRM_BASE_URL (from the environment / .env; unset: the
// embedded reference server). `crm-conformance run` does not use vitest: it runs the same declarations itself.
export default defineConfig({
  test: {
    include: ['suites/**/*.suite.ts'],
    // A run is paced against the target's rate limit: one file at a time.
    fileParallelism: false,
    testTimeout: 0,
  },
})
