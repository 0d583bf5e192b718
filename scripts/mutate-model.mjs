#!/usr/bin/env node
// The CLI from the TypeScript sources (bin/crm-conformance-ts.mjs) with the explorer's model kept whole: under
// `npm run mutate` the reference server in Stryker's sandbox is the mutant, and the explorer's oracle imports the
// same files, so target and model would carry the same mutant and agree. Here the oracle's reference server comes
// from the unmutated project named by the first argument; the embedded target stays the mutant.
//   node scripts/mutate-model.mjs <project root> run --embedded --only explore …
import { register } from 'node:module'
import { resolve } from 'node:path'
import { register as registerTsx } from 'tsx/esm/api'

const [root, ...args] = process.argv.slice(2)
registerTsx()
// Registered after tsx, so it resolves first (Node chains hooks last-registered first).
register('./mutate-model-hooks.mjs', import.meta.url, { data: { root: resolve(root) } })
const { main } = await import('../src/cli/main.ts')
process.exitCode = await main(args)
