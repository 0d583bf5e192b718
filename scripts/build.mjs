// Builds dist/ (the compiled JavaScript the `crm-conformance` command runs) when the sources changed since the
// last build, and says so; else does nothing, in a few milliseconds. `npm run conformance`, `npm run serve` and
// `npm ci` (prepare) come here. `--force` builds whatever the stamp says (`npm run build`, `npm pack`).
// The stamp is a digest of what the build reads: src/ and suites/ (tests aside), the tsconfig files and the
// lockfile (the types of the dependencies). Plain JavaScript: it runs before anything is compiled.
import { createHash } from 'node:crypto'
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
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
const built = existsSync(ENTRY) && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === digest
if (built && !force) process.exit(0)

// A fresh clone (or a dist/ removed) has no last build to compare with: its first build says so.
const why = force ? '' : existsSync(STAMP) ? ': the sources changed since the last build' : ' for the first time'
process.stderr.write(`building dist/${why} (tsc -p tsconfig.build.json)…\n`)
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
const run = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' })
if (run.status !== 0) process.exit(run.status ?? 1)
writeFileSync(STAMP, `${digest}\n`)
