// Builds dist/ (the compiled JavaScript the `crm-conformance` command runs) when the sources changed since the
// last build, and says so; else does nothing, in a few milliseconds. `npm run conformance`, `npm run serve` and
// `npm ci` (prepare) come here. `--force` builds whatever the stamp says (`npm run build`, `npm pack`).
// The stamp is a digest of what the build reads: src/ and suites/ (tests aside), the tsconfig files and the
// lockfile (the types of the dependencies). Plain JavaScript: it runs before anything is compiled.
// `--digest` prints the stamp's digest and builds nothing (the GitHub Action's cache key). `--transpile-only
// <tsc>` emits dist/ with that tsc and no type check, so no @types package is needed: the Action's
// production-only install (action.yml) has only TypeScript itself beside the runtime dependencies; the emitted
// JavaScript is the same, as the sources compile file by file (verbatimModuleSyntax).
import { createHash } from 'node:crypto'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'

const ROOT = join(import.meta.dirname, '..')
const DIST = join(ROOT, 'dist')
const STAMP = join(DIST, '.build-stamp')
const ENTRY = join(DIST, 'src', 'cli', 'main.js')
const SOURCES = ['src', 'suites']
const FILES = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json']

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* walk(path)
    else if (/\.(ts|json)$/.test(entry.name) && !entry.name.endsWith('.test.ts')) yield path
  }
}

export function sourceDigest() {
  const hash = createHash('sha256')
  const paths = [...SOURCES.flatMap((dir) => [...walk(join(ROOT, dir))]), ...FILES.map((f) => join(ROOT, f)).filter(existsSync)].sort()
  for (const path of paths)
    hash
      .update(`${relative(ROOT, path)}\0`)
      .update(readFileSync(path))
      .update('\0')
  return hash.digest('hex')
}

const force = process.argv.includes('--force')
const digest = sourceDigest()
if (process.argv.includes('--digest')) {
  process.stdout.write(`${digest}\n`)
  process.exit(0)
}
const transpileOnly = process.argv.indexOf('--transpile-only')
const tscGiven = transpileOnly >= 0 ? process.argv[transpileOnly + 1] : undefined
if (transpileOnly >= 0 && !tscGiven) {
  process.stderr.write('--transpile-only needs the path of a tsc (node_modules/typescript/bin/tsc)\n')
  process.exit(2)
}
const built = existsSync(ENTRY) && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === digest
if (built && !force) process.exit(0)

const how = `tsc -p tsconfig.build.json${tscGiven ? ', no type check' : ''}`
// A fresh clone (or a dist/ removed) has no last build to compare with: its first build says so.
const why = force ? '' : existsSync(STAMP) ? ': the sources changed since the last build' : ' for the first time'
process.stderr.write(`building dist/${why} (${how})…\n`)
const tsc = tscGiven ?? createRequire(import.meta.url).resolve('typescript/bin/tsc')
// The build's own options, less the type check and the @types it reads (paths in it stay relative to it).
const scratch = tscGiven ? mkdtempSync(join(tmpdir(), 'crmconf-build-')) : undefined
const project = scratch ? join(scratch, 'tsconfig.json') : join(ROOT, 'tsconfig.build.json')
if (scratch) writeFileSync(project, JSON.stringify({ extends: join(ROOT, 'tsconfig.build.json'), compilerOptions: { noCheck: true, types: [] } }))
const run = spawnSync(process.execPath, [tsc, '-p', project], { cwd: ROOT, stdio: 'inherit' })
if (scratch) rmSync(scratch, { recursive: true, force: true })
if (run.status !== 0) process.exit(run.status ?? 1)
writeFileSync(STAMP, `${digest}\n`)
