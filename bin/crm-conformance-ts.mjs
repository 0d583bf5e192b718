#!/usr/bin/env node
// The CLI from the TypeScript sources, through tsx: what the project's own tests and scripts run, so an edit
// needs no build. Not part of the package (the installed command is bin/crm-conformance.mjs, from dist/).
import { register } from 'tsx/esm/api'
register()
const { main } = await import('../src/cli/main.ts')
process.exitCode = await main(process.argv.slice(2))
