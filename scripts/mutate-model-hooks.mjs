// Module hooks of scripts/mutate-model.mjs: the explorer's oracle (src/run/oracle.ts) imports the reference
// server from the unmutated project (`data.root`) instead of Stryker's sandbox, where it is the mutant.
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

let model

export function initialize(data) {
  model = pathToFileURL(join(data.root, 'src', 'reference', 'index.ts')).href
}

export function resolve(specifier, context, next) {
  if (specifier === '../reference/index.ts' && context.parentURL?.endsWith('/src/run/oracle.ts')) return next(model, context)
  return next(specifier, context)
}
