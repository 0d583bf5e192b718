// `npm pack` / `npm publish`: the packed package.json carries no development script (an installed package has
// no `prepare` to approve, no `test` to run). prepack builds dist/ afresh and strips the scripts, keeping the
// original in package.json.dev; postpack puts it back. A pack that died between the two leaves
// package.json.dev: `node scripts/pack-manifest.mjs postpack` restores it.
import { copyFileSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

const ROOT = join(import.meta.dirname, '..')
const MANIFEST = join(ROOT, 'package.json')
const KEPT = join(ROOT, 'package.json.dev')

const step = process.argv[2]
if (step === 'prepack') {
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true })
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--force'], { cwd: ROOT, stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
  if (!existsSync(KEPT)) copyFileSync(MANIFEST, KEPT)
  const { scripts: _scripts, ...published } = JSON.parse(readFileSync(KEPT, 'utf8'))
  writeFileSync(MANIFEST, `${JSON.stringify(published, null, 2)}\n`)
} else if (step === 'postpack') {
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST)
} else {
  process.stderr.write('usage: node scripts/pack-manifest.mjs prepack|postpack\n')
  process.exit(2)
}
