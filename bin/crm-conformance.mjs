#!/usr/bin/env node
// The installed command: the compiled JavaScript of dist/ (`npm run build`; `npm ci` and `npm pack` build it),
// no TypeScript at run time. The project's own tests run the sources instead (bin/crm-conformance-ts.mjs).
// Plain enough to parse on any Node that loads ES modules (no top-level await), so that an older Node than
// package.json's "engines" allows gets one line saying which one is needed, not a crash deep in a dependency.
const NEEDED = [20, 19] // package.json "engines": ">=20.19.0" (test/bin.test.ts keeps the two equal)
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < NEEDED[0] || (major === NEEDED[0] && minor < NEEDED[1])) {
  process.stderr.write(`crm-conformance needs Node.js ${NEEDED.join('.')} or newer; this is Node.js ${process.versions.node}.\n`)
  process.exitCode = 2
} else {
  const entry = new URL('../dist/src/cli/main.js', import.meta.url)
  import('node:fs')
    .then(({ existsSync }) => {
      if (!existsSync(entry))
        throw Object.assign(new Error('crm-conformance is not built: dist/ is missing (run `npm run build` in the project folder).'), { brief: true })
      return import(entry.href)
    })
    .then(({ main }) => main(process.argv.slice(2)))
    .then((code) => {
      process.exitCode = code
    })
    .catch((error) => {
      process.stderr.write(`${error.brief ? error.message : error.stack}\n`)
      process.exitCode = 2
    })
}
