// StrykerJS over the embedded reference server (issue 25, item 3). `npm run mutate` (scripts/mutate.ts) sets
// `mutate`, `concurrency` and the command from its flags; `npx stryker run` alone uses these values. Each mutant
// runs the suite against the mutated server in Stryker's sandbox copy of the project: a non-compliant verdict
// (exit 1), or any other non-zero exit, kills it; `compliant` (exit 0) lets it survive.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'command',
  commandRunner: { command: 'node bin/crm-conformance-ts.mjs run --embedded --quiet --no-sweep --report-dir .stryker-run' },
  // The command runner cannot tell which test covers which mutant: every mutant runs the command.
  coverageAnalysis: 'off',
  concurrency: 1,
  mutate: ['src/reference/pagination.ts'],
  ignorePatterns: ['reports', 'dist', 'test', 'docs', 'examples', '.stryker-run'],
  reporters: ['html', 'json', 'progress'],
  htmlReporter: { fileName: 'reports/stryker/mutation.html' },
  jsonReporter: { fileName: 'reports/stryker/mutation.json' },
  tempDirName: '.stryker-tmp',
  // A run takes 10–20 s alone and more on shared cores; a mutant that makes the server hang is a timeout.
  timeoutMS: 30_000,
  timeoutFactor: 2,
  dryRunTimeoutMinutes: 5,
  fileLogLevel: 'off',
}
