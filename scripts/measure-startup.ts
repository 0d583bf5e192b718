// npm run bench:startup: how long `--help`, `list` and `openapi` take to start and finish, from the TypeScript
// sources through tsx (how the command ran before it shipped dist/) and from the compiled dist/ (how the
// installed command runs). With `--before <git revision>` a third row runs that revision's own bin, extracted
// to a temporary folder beside this checkout's node_modules (e.g. `--before c3863be`, the last commit whose
// bin ran tsx and compiled every schema at import). Runs are interleaved so a busy machine weighs on every
// row alike; prints the median and the fastest wall time, the median CPU time (user + system) and the peak
// memory. Figures only: nothing is asserted. Build first (`npm run build`) for a current dist/.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { PROJECT_ROOT, TOOL_VERSION } from '../src/version.ts'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, before: { type: 'string' } } })
const RUNS = Number(values.runs)
const GNU_TIME = '/usr/bin/time'
const hasGnuTime = existsSync(GNU_TIME)

interface Sample {
  wallMs: number
  cpuMs: number
  peakMb: number
}

interface Row {
  label: string
  bin: string
}

const scratch = mkdtempSync(join(tmpdir(), 'crmconf-startup-'))
const rows: Row[] = [
  { label: 'sources via tsx', bin: join(PROJECT_ROOT, 'bin', 'crm-conformance-ts.mjs') },
  { label: 'dist/', bin: join(PROJECT_ROOT, 'bin', 'crm-conformance.mjs') },
]
if (!existsSync(join(PROJECT_ROOT, 'dist', 'src', 'cli', 'main.js'))) {
  console.error('dist/ is missing: run `npm run build` first')
  process.exit(2)
}
if (values.before) {
  const folder = join(scratch, 'before')
  execFileSync('sh', ['-c', `mkdir -p "$1" && git -C "$2" archive "$3" | tar -x -C "$1"`, 'sh', folder, PROJECT_ROOT, values.before])
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(folder, 'node_modules'), 'dir')
  rows.unshift({ label: `before (${values.before})`, bin: join(folder, 'bin', 'crm-conformance.mjs') })
}

const commands: { name: string; args: string[] }[] = [
  { name: '--help', args: ['--help'] },
  { name: 'list', args: ['list'] },
  { name: 'openapi', args: ['openapi', '--out', join(scratch, 'openapi.json')] },
]

function measure(bin: string, args: string[]): Sample {
  const started = performance.now()
  const child = hasGnuTime
    ? spawnSync(GNU_TIME, ['-f', '%U %S %M', process.execPath, bin, ...args], { cwd: scratch, encoding: 'utf8' })
    : spawnSync(process.execPath, [bin, ...args], { cwd: scratch, encoding: 'utf8' })
  const wallMs = performance.now() - started
  if (child.status !== 0) throw new Error(`${bin} ${args.join(' ')} exited ${child.status}: ${child.stderr}`)
  const [user, system, peakKb] = hasGnuTime ? child.stderr.trim().split('\n').at(-1)!.split(' ').map(Number) : [NaN, NaN, NaN]
  return { wallMs, cpuMs: (user! + system!) * 1000, peakMb: peakKb! / 1024 }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const ms = (value: number): string => (Number.isFinite(value) ? `${Math.round(value)} ms` : 'n/a').padStart(8)

console.log(
  `crm-conformance ${TOOL_VERSION} start-up on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}, ${RUNS} runs each, interleaved`,
)
try {
  const baseline: number[] = []
  const samples = new Map<string, Sample[]>()
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now()
    spawnSync(process.execPath, ['-e', ''])
    baseline.push(performance.now() - started)
    for (const command of commands) {
      for (const row of rows) {
        const key = `${command.name}\u0000${row.label}`
        samples.set(key, [...(samples.get(key) ?? []), measure(row.bin, command.args)])
      }
    }
  }
  console.log(`node -e '' (the floor on this machine now): median ${Math.round(median(baseline))} ms`)
  console.log(`${'command'.padEnd(10)}${'how it runs'.padEnd(24)}${'median'.padStart(8)}${'fastest'.padStart(9)}${'CPU'.padStart(9)}${'memory'.padStart(9)}`)
  for (const command of commands) {
    for (const row of rows) {
      const runs = samples.get(`${command.name}\u0000${row.label}`)!
      const peak = median(runs.map((r) => r.peakMb))
      console.log(
        `${command.name.padEnd(10)}${row.label.padEnd(24)}${ms(median(runs.map((r) => r.wallMs)))} ${ms(Math.min(...runs.map((r) => r.wallMs)))} ${ms(median(runs.map((r) => r.cpuMs)))} ${(Number.isFinite(peak) ? `${Math.round(peak)} MB` : 'n/a').padStart(8)}`,
      )
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
