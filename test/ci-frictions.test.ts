// What costs a CI user an hour, each fixed (issue 27): the CI service recognised and named, errors that stop a
// run on stderr, --fault/--variant checked up front, look-alike names also when the configuration is unusable,
// a busy sink port refused at start, no empty folder left in a report, serve's webhook URL and CORS, ports
// that do not collide.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildProgram } from '../src/cli/main.ts'
import { runCommand, type RunCommandOptions } from '../src/cli/run-command.ts'
import { BIN, baseEnv } from './hostile/cli.ts'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'crmconf-frictions-'))
})
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const KEY = 'crm_ws_x_0123456789abcdef'
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

/** runCommand in this process with stdout and stderr captured apart. */
async function run(options: Partial<RunCommandOptions> & { env: NodeJS.ProcessEnv }) {
  let stdout = ''
  let stderr = ''
  const outcome = await runCommand({ reportDir: join(dir, 'never'), ...options, write: (t) => (stdout += t), writeError: (t) => (stderr += t) })
  return { code: outcome.exitCode, stdout, stderr, outcome }
}

describe('every CI recognised, and named in the first line', () => {
  test('Jenkins sets no CI: without CRM_BASE_URL the run is refused on stderr, naming Jenkins', async () => {
    const result = await run({ env: { JENKINS_URL: 'https://jenkins.example.com/', BUILD_ID: '17' } })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('running in Jenkins and CRM_BASE_URL is not: set CRM_BASE_URL')
    expect(result.stdout).toBe('')
  })

  test('Buildkite with --embedded: the first line names it; the replay line keeps --embedded; no empty .journal/ is left', async () => {
    const reportDir = join(dir, 'buildkite')
    const result = await run({ env: { BUILDKITE: 'true' }, embedded: true, only: ['discovery.me.answers'], reportDir, quiet: true })
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(result.stdout.split('\n')[0]).toMatch(/^crm-conformance \S+: embedded reference server, profile full, seed \d+, in Buildkite$/)
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8'))
    expect(report.replay).toMatch(/^crm-conformance run --embedded --only discovery\.me\.answers --seed \d+ --profile full$/)
    expect(report.checks[0].replay).toContain('--embedded')
    expect(readdirSync(reportDir).sort()).toEqual(['badge.json', 'junit.xml', 'report.html', 'report.json', 'summary.md'])
  }, 60_000)
})

describe('a run that cannot start says why on stderr, and writes nothing', () => {
  test.each([
    {
      options: { faults: ['bogus'] },
      line: /^--fault bogus is not a fault of the reference server \(none is near; `crm-conformance list --faults` lists the \d+ known\)\n$/,
    },
    { options: { variant: 'alt-x' }, line: /^--variant alt-x is not a variant of the reference server: did you mean alt-a or alt-b or alt-c\?\n$/ },
  ])('$options: one line with the nearest names, exit 2', async ({ options, line }) => {
    const reportDir = join(dir, `bad-${Object.keys(options)[0]}`)
    const result = await run({ env: {}, embedded: true, reportDir, ...options })
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(line)
    expect(result.stdout).toBe('')
    expect(existsSync(reportDir)).toBe(false)
  })

  test('CRM_APIKEY (a look-alike) is named also when the configuration is unusable', async () => {
    const result = await run({ env: { CRM_BASE_URL: 'http://127.0.0.1:9/v1', CRM_APIKEY: KEY } })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('warning: CRM_APIKEY is not a variable crm-conformance reads: did you mean CRM_API_KEY?')
    expect(result.stderr).toContain('CRM_API_KEY is required with CRM_BASE_URL')
    expect(result.stderr).not.toContain(KEY)
  })

  test('the same from another command (sweep), on stderr', async () => {
    const { runCli } = await import('./hostile/cli.ts')
    const result = await runCli(['sweep', '--dry-run'], {
      cwd: dir,
      env: baseEnv({ CRM_BASE_URL: 'http://127.0.0.1:9/v1', CRM_APIKEY: KEY }),
      hardLimitMs: 60_000,
    })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('did you mean CRM_API_KEY?')
    expect(result.stdout).toBe('')
  }, 60_000)

  test('a busy webhook sink port: refused at start, exit 2, naming CRM_WEBHOOK_SINK_PORT', async () => {
    const busy: Server = createServer()
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
    const port = (busy.address() as AddressInfo).port
    try {
      const result = await run({
        env: { CRM_BASE_URL: 'http://127.0.0.1:9/v1', CRM_API_KEY: KEY, CRM_WEBHOOK_SECRET: SECRET, CRM_WEBHOOK_SINK_PORT: String(port) },
      })
      expect(result.code).toBe(2)
      expect(result.stderr).toContain(`the port is busy (CRM_WEBHOOK_SINK_PORT=${port})`)
    } finally {
      busy.close()
    }
  })
})

describe('serve and proxy side by side, serve for a browser and a sink of your own', () => {
  test('serve and proxy do not default to the same port; both take --port 0', () => {
    const program = buildProgram(() => {})
    const portOf = (name: string) => program.commands.find((c) => c.name() === name)!.options.find((o) => o.long === '--port')!
    expect(portOf('serve').defaultValue).not.toBe(portOf('proxy').defaultValue)
    for (const name of ['serve', 'proxy']) expect(portOf(name).description).toContain('0: any free port')
  })

  test('serve --webhook-url sends events there; serve --cors lets a page on another origin call the API', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--cors', '--webhook-url', 'http://127.0.0.1:9/hooks'], {
      cwd: dir,
      env: baseEnv(),
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    try {
      let printed = ''
      await new Promise<void>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${printed}`)))
        child.stdout!.on('data', (chunk: Buffer) => {
          printed += chunk
          if (printed.includes('Ctrl-C')) resolve()
        })
      })
      expect(printed).toContain('Webhook events go to http://127.0.0.1:9/hooks\n')
      expect(printed).toContain('CORS: browser pages from any origin may call the API')
      const baseUrl = /^CRM_BASE_URL=(\S+)$/m.exec(printed)![1]!
      const key = /^CRM_API_KEY=(\S+)$/m.exec(printed)![1]!
      const origin = 'http://localhost:5173'
      const preflight = await fetch(`${baseUrl}/accounts`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin)
      expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization')
      const me = await fetch(`${baseUrl}/me`, { headers: { origin, authorization: `Bearer ${key}` } })
      expect(me.status).toBe(200)
      expect(me.headers.get('access-control-allow-origin')).toBe(origin)
      expect(me.headers.get('access-control-expose-headers')).toContain('ratelimit-remaining')
      await me.arrayBuffer()
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    }
  }, 60_000)

  test.each([
    ['serve', []],
    ['proxy', ['--target', 'http://127.0.0.1:9/v1']],
  ])(
    '%s on a busy port: one line naming the port and --port, exit 2, no raw EADDRINUSE',
    async (command, extra) => {
      const busy: Server = createServer()
      await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
      const port = (busy.address() as AddressInfo).port
      try {
        const child = spawn(process.execPath, [BIN, command, '--port', String(port), ...extra], { cwd: dir, env: baseEnv() })
        let stderr = ''
        child.stderr.on('data', (c: Buffer) => (stderr += c))
        child.stdout.resume()
        const code = await new Promise((resolve) => child.once('close', resolve))
        expect(code).toBe(2)
        expect(stderr).toBe(
          `${command} cannot listen on 127.0.0.1:${port}: the port is busy (is another ${command} running?); choose another with --port (0: any free port)\n`,
        )
      } finally {
        busy.close()
      }
    },
    60_000,
  )

  test('serve --fault bogus: one line on stderr, exit 2, the server never starts', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--fault', 'auth.missing-key-accpted'], { cwd: dir, env: baseEnv() })
    let stderr = ''
    let stdout = ''
    child.stderr.on('data', (c: Buffer) => (stderr += c))
    child.stdout.on('data', (c: Buffer) => (stdout += c))
    const code = await new Promise((resolve) => child.once('close', resolve))
    expect(code).toBe(2)
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).toMatch(/^--fault auth\.missing-key-accpted is not a fault of the reference server/)
    expect(stdout).toBe('')
  }, 60_000)
})
