// The package as users get it (issue 19 "Done when", issue 17 cases 1 and 12): `npm pack`, the tarball
// installed into a fresh folder whose path has a space and non-ASCII characters, the installed package folder
// made read-only, then the installed command run: --help, list, a run against the embedded reference server
// and one against a `serve` process. Every report file lands in a folder outside the package, nothing is
// written inside it (compared file by file, since chmod does not stop root), and the tarball holds only what
// runs. Slow (a build, an install, three runs): one file, so it runs in its own process.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join, relative } from 'node:path'
import { parse as parseDotenv } from 'dotenv'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceServer } from '../src/reference/index.ts'
import type { RunReport } from '../src/report/types.ts'
import { PROJECT_ROOT, TOOL_VERSION } from '../src/version.ts'
import { catalogue } from '../suites/index.ts'

/** What `npm pack` reads: the sources it builds from and everything `files` names. */
const PROJECT_FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'README.md',
  'docs',
  'LICENSE',
  'bin',
  'src',
  'suites',
  'schemas',
  'spec',
  // prepack and postpack (the packed package.json without the development scripts) and the build stamp.
  'scripts',
]
const REPORT_FILES = ['report.json', 'report.html', 'junit.xml', 'summary.md', 'badge.json']
/** A small selection that reads, writes and cleans up: discovery, and the account records. */
const SELECTION = ['--only', 'discovery', '--only', 'records.account']

let base: string
let tarball: string
let packed: string[]
let app: string
let installed: string
let before: Map<string, string>
let serve: ChildProcess | undefined

/** The environment of a child: ours without npm's view of this project (it would install into it) and no CRM_*. */
function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm_package_|npm_lifecycle_|npm_config_local_prefix$|npm_command$|INIT_CWD$|CRM_|CI$)/.test(name)),
  )
  return { ...env, PATH: [dirname(process.execPath), process.env.PATH].join(delimiter), ...extra }
}

/** Every file and folder under `dir`: relative path → size and modification time (what a write changes). */
function snapshot(dir: string): Map<string, string> {
  const entries = new Map<string, string>()
  const walk = (path: string): void => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name)
      const stat = statSync(full)
      entries.set(relative(dir, full), `${entry.isDirectory() ? 'dir' : stat.size} ${stat.mtimeMs}`)
      if (entry.isDirectory()) walk(full)
    }
  }
  walk(dir)
  return entries
}

function setWritable(dir: string, writable: boolean): void {
  const walk = (path: string): void => {
    const stat = statSync(path)
    chmodSync(path, writable ? stat.mode | 0o200 : stat.mode & ~0o222)
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name))
  }
  walk(dir)
}

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** The installed command, through the `.bin` link npm made, as a user's shell would start it. */
function installedCli(args: string[], env: NodeJS.ProcessEnv = {}): Run {
  const run = spawnSync(join(app, 'node_modules', '.bin', 'crm-conformance'), args, { cwd: app, env: childEnv(env), encoding: 'utf8', timeout: 240_000 })
  return { code: run.status, stdout: run.stdout, stderr: run.stderr }
}

function expectReports(reportDir: string, run: Run): RunReport {
  expect(run.code, run.stdout + run.stderr).toBe(0)
  for (const file of REPORT_FILES) expect(existsSync(join(reportDir, file)), `${file}\n${run.stdout}${run.stderr}`).toBe(true)
  const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as RunReport
  expect(report.tool.version).toBe(TOOL_VERSION)
  expect(report.checks.filter((c) => c.status === 'passed').length).toBeGreaterThan(0)
  expect(report.checks.some((c) => c.id.startsWith('records.account.'))).toBe(true)
  expect(report.requests.total).toBeGreaterThan(0)
  return report
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'crmconf-package-'))
  const packs = join(base, 'packs')
  mkdirSync(packs)
  // The real lifecycle (prepack removes dist/, prepare builds it from the sources), in a copy of the project so
  // that no other test sees this checkout's dist/ disappear.
  const project = join(base, 'project')
  for (const name of PROJECT_FILES) cpSync(join(PROJECT_ROOT, name), join(project, name), { recursive: true })
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(project, 'node_modules'), 'dir')
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', packs], { cwd: project, env: childEnv(), encoding: 'utf8' })
    .trim()
    .split('\n')
    .at(-1)!
  tarball = join(packs, name)
  packed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n')

  app = join(base, 'with space', 'ünï', 'app')
  mkdirSync(app, { recursive: true })
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }))
  // From the cache `npm ci` filled, asking the registry only for what it lacks.
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: app, env: childEnv(), encoding: 'utf8' })
  installed = join(app, 'node_modules', 'crm-conformance')
  setWritable(installed, false)
  before = snapshot(installed)
}, 600_000)

afterAll(async () => {
  if (serve && serve.exitCode === null) {
    const exited = new Promise((resolve) => serve!.once('exit', resolve))
    serve.kill('SIGTERM')
    await exited
  }
  if (installed && existsSync(installed)) setWritable(installed, true)
  if (base) rmSync(base, { recursive: true, force: true })
})

describe('the packed package', () => {
  it('holds what runs and no test, CI, script or TypeScript source file', () => {
    const files = packed.map((p) => p.replace(/^package\//, ''))
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        // The guides the README links.
        'docs/ci.md',
        'docs/reference.md',
        'LICENSE',
        'bin/crm-conformance.mjs',
        'dist/src/cli/main.js',
        'dist/suites/index.js',
        'dist/src/traffic/proxy-command.js',
        'dist/src/traffic/judge-worker.js',
        'dist/src/traffic/verify-command.js',
        'dist/src/traffic/har-entries.js',
        'dist/src/traffic/rules/index.js',
        'schemas/error.json',
        'spec/crm-api-spec.md',
      ]),
    )
    const unexpected = files.filter((f) =>
      /(^|\/)test\/|\.test\.|(^|\/)\.ci\/|^scripts\/|^src\/|^suites\/|^examples\/|^fixtures\/|^reports\/|\.tsbuildinfo$|(?<!\.d)\.ts$|test-fixtures/.test(f),
    )
    expect(unexpected).toEqual([])
  })

  it('packs a package.json without the development scripts (nothing to approve at install), and restores the project one', () => {
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }))
    expect(manifest.scripts).toBeUndefined()
    expect(manifest.bin).toEqual({ 'crm-conformance': 'bin/crm-conformance.mjs' })
    const project = JSON.parse(readFileSync(join(base, 'project', 'package.json'), 'utf8'))
    expect(project.scripts.prepack).toBeDefined()
    expect(existsSync(join(base, 'project', 'package.json.dev'))).toBe(false)
  })

  it('installs its production dependencies only: no tsx, no vitest, no TypeScript', () => {
    for (const name of ['tsx', 'vitest', 'typescript']) expect(existsSync(join(app, 'node_modules', name)), name).toBe(false)
  })

  it('--help: exit 0, every command', () => {
    const run = installedCli(['--help'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('Usage: crm-conformance')
    for (const command of ['run', 'list', 'serve', 'certify', 'openapi', 'proxy', 'verify-traffic'])
      expect(run.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'))
  })

  it('list: every check of the catalogue', () => {
    const run = installedCli(['list'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout.trim().split('\n')).toHaveLength(catalogue.length)
  })

  it('run against the embedded reference server: every report file, outside the package', () => {
    const reportDir = join(base, 'reports ünï', 'embedded')
    expectReports(reportDir, installedCli(['run', '--embedded', ...SELECTION, '--report-dir', reportDir]))
  }, 300_000)

  it('run against a `serve` process, configured from the .env block it prints', async () => {
    serve = spawn(join(app, 'node_modules', '.bin', 'crm-conformance'), ['serve', '--port', '0'], {
      cwd: app,
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let printed = ''
    const env = await new Promise<Record<string, string>>((resolve, reject) => {
      serve!.once('exit', (code) => reject(new Error(`serve exited (${code}): ${printed}`)))
      serve!.stderr!.on('data', (chunk: Buffer) => (printed += chunk))
      serve!.stdout!.on('data', (chunk: Buffer) => {
        printed += chunk
        if (printed.includes('Ctrl-C')) resolve(parseDotenv(printed.slice(printed.indexOf('CRM_BASE_URL='))))
      })
    })
    serve.removeAllListeners('exit')
    expect(env.CRM_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
    const reportDir = join(base, 'reports ünï', 'served')
    const report = expectReports(reportDir, installedCli(['run', ...SELECTION, '--report-dir', reportDir], env))
    expect(report.target.embedded).toBe(false)
  }, 300_000)

  it('proxy in front of the reference server: the listening line, a request through, exit 0 on SIGTERM, the report and the record', async () => {
    const server = await startReferenceServer({ port: 0 })
    const reportDir = join(base, 'reports ünï', 'proxy')
    const record = join(base, 'reports ünï', 'traffic.ndjson')
    const proxy = spawn(
      join(app, 'node_modules', '.bin', 'crm-conformance'),
      ['proxy', '--target', server.baseUrl, '--port', '0', '--report-dir', reportDir, '--record', record],
      { cwd: app, env: childEnv({ CRM_API_KEY: server.keys.main }), stdio: ['ignore', 'pipe', 'pipe'] },
    )
    try {
      let printed = ''
      const url = await new Promise<string>((resolve, reject) => {
        proxy.once('exit', (code) => reject(new Error(`proxy exited (${code}): ${printed}`)))
        proxy.stderr!.on('data', (chunk: Buffer) => (printed += chunk))
        proxy.stdout!.on('data', (chunk: Buffer) => {
          printed += chunk
          const found = /^proxy listening on (http:\/\/127\.0\.0\.1:\d+\/v1)$/m.exec(printed)
          if (found) resolve(found[1]!)
        })
      })
      proxy.removeAllListeners('exit')
      const res = await fetch(`${url}/me`, { headers: { authorization: `Bearer ${server.keys.main}` } })
      expect(res.status).toBe(200)
      await res.text()
      const exited = new Promise<number | null>((resolve) => proxy.once('exit', (code) => resolve(code)))
      proxy.kill('SIGTERM')
      expect(await exited, printed).toBe(0)
    } finally {
      if (proxy.exitCode === null && proxy.signalCode === null) proxy.kill('SIGKILL')
      await server.close()
    }
    for (const file of REPORT_FILES) expect(existsSync(join(reportDir, file)), file).toBe(true)
    expect(JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')).traffic).toMatchObject({ source: 'proxy', exchanges: 1 })
    const recorded = readFileSync(record, 'utf8')
    expect(recorded.trim().split('\n')).toHaveLength(1)
    expect(recorded).not.toContain(server.keys.main)
  }, 120_000)

  it('verify-traffic on the recorded NDJSON: exit 0 and every report file', () => {
    const record = join(base, 'reports ünï', 'traffic.ndjson')
    if (!existsSync(record)) return expect.fail('the proxy test records the traffic this test reads')
    const reportDir = join(base, 'reports ünï', 'verified')
    const run = installedCli(['verify-traffic', record, '--report-dir', reportDir])
    expect(run.code, run.stdout + run.stderr).toBe(0)
    for (const file of REPORT_FILES) expect(existsSync(join(reportDir, file)), file).toBe(true)
    expect(JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')).traffic.exchanges).toBe(1)
  }, 120_000)

  it('wrote nothing inside the installed package', () => {
    const after = snapshot(installed)
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter((path) => before.get(path) !== after.get(path))
    expect(changed).toEqual([])
  })
})
