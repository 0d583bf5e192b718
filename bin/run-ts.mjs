#!/usr/bin/env node
// Runs a TypeScript script (e.g. the benchmark) through tsx.
import { register } from 'tsx/esm/api'
import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'
register()
const [script, ...rest] = process.argv.slice(2)
process.argv = [process.argv[0], script, ...rest]
await import(pathToFileURL(resolve(script)).href)
