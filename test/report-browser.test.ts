// report.html opened in a real browser (Debian's Chromium driven by playwright-core): a CLI run against the
// embedded server with two injected faults (one caught by a MUST check, one by a SHOULD check) writes the
// report; the page must list the failures first, MUST before SHOULD, each with its clause, its evidence (a
// curl line) and the command that replays it alone; screenshots are saved under reports/browser/ (their
// paths are printed).
//
// Chromium is not installed by this test: .ci/run installs it. Missing, the test fails in CI (CI set) and is
// skipped elsewhere, saying so.
import { once } from 'node:events'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { CheckResult } from '../src/checks/types.ts'
import { writeReportFiles } from '../src/report/write.ts'
import { HOSTILE_BODY, makeReport } from '../src/report/test-fixtures.ts'
import type { RunReport } from '../src/report/types.ts'
import { ROOT, baseEnv, runCli } from './hostile/cli.ts'
import { HOSTILE_WELL_FORMED } from './hostile/corpus.ts'
import { faultCaughtBy } from './hostile/faults.ts'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
const IN_CI = Boolean(process.env.CI)
const available = existsSync(CHROMIUM)
const SCREENSHOTS = join(ROOT, 'reports', 'browser')

if (!available && !IN_CI) {
  console.warn(`report-browser.test.ts skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH); in CI this is a failure`)
}

let dir: string
let context: BrowserContext | undefined

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crmconf-browser-'))
  if (!available) return
  context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 1400 },
  })
})

afterAll(async () => {
  await context?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** Opens a file path, or a URL (file:, http:). */
async function open(file: string): Promise<{ page: Page; dialogs: string[]; errors: string[] }> {
  if (!context) throw new Error(`no Chromium at ${CHROMIUM}: .ci/run installs Debian's chromium package (apt-get install -y chromium)`)
  const page = await context.newPage()
  const dialogs: string[] = []
  const errors: string[] = []
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(/^(file|https?):\/\//.test(file) ? file : pathToFileURL(file).href)
  return { page, dialogs, errors }
}

async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  const path = join(SCREENSHOTS, name)
  await page.screenshot({ path, fullPage: false })
  console.log(`screenshot: ${path}`)
  return path
}

/** The report files of a made-up run with the hostile corpus in every field a server fills: ids, messages, expected, evidence bodies. */
async function writeHostileCorpusReport(reportDir: string): Promise<void> {
  const report = makeReport()
  const failed = report.checks.find((c) => c.status === 'failed')!
  Object.assign(failed, { message: `${failed.message} ${HOSTILE_WELL_FORMED}`, expected: HOSTILE_WELL_FORMED })
  await writeReportFiles(report, reportDir)
}

describe.skipIf(!available && !IN_CI)('report.html in headless Chromium', () => {
  test('Chromium is there (CI installs it in .ci/run)', () => {
    expect(available, `no Chromium at ${CHROMIUM}: .ci/run installs Debian's chromium package (apt-get install -y chromium)`).toBe(true)
  })

  test('a real run: failures first (MUST, then SHOULD), each with its clause, evidence, curl line and replay command', async () => {
    const must = faultCaughtBy('MUST')
    const should = faultCaughtBy('SHOULD')
    const reportDir = join(dir, 'run')
    const only = [...must.checks, ...should.checks, 'discovery']
    const run = await runCli(
      ['run', '--fault', must.fault, '--fault', should.fault, '--only', only.join(','), '--seed', '4242', '--report-dir', reportDir, '--quiet'],
      {
        cwd: dir,
        env: baseEnv(),
        hardLimitMs: 120_000,
      },
    )
    expect(run.hung).toBe(false)
    expect(run.code, run.stdout.slice(-2000) + run.stderr.slice(-2000)).toBe(1)
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as RunReport
    const failed = report.checks.filter((c) => c.status === 'failed')
    expect(failed.map((c) => c.id)).toEqual(expect.arrayContaining([must.checks[0], should.checks[0]]))

    const { page, dialogs, errors } = await open(join(reportDir, 'report.html'))
    await expect.poll(() => page.title()).toMatch(/Non-compliant/)
    // What a person sees first: the verdict, the counts, and the first failure.
    await screenshot(page, 'report.png')
    expect(await page.getByTestId('verdict').getAttribute('data-verdict')).toBe('non-compliant')

    // Failures come first: the first check on the page is a failure, and the failures section is above the
    // list of all checks.
    const firstCheck = page.locator('article.check, [data-testid="check-row"]').first()
    expect(await firstCheck.getAttribute('data-testid')).toBe('failure')
    const failuresTop = (await page.getByTestId('failures').boundingBox())!.y
    expect(failuresTop).toBeLessThan((await page.getByTestId('by-clause').boundingBox())!.y)
    await expect.poll(() => page.getByTestId('failures').isVisible()).toBe(true)

    const articles = page.getByTestId('failure')
    expect(await articles.count()).toBe(failed.length)
    const levels = await articles.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-level')))
    expect(levels).toEqual([...levels].sort((a, b) => ['MUST', 'SHOULD', 'INFO'].indexOf(a!) - ['MUST', 'SHOULD', 'INFO'].indexOf(b!)))
    expect(levels).toContain('MUST')
    expect(levels).toContain('SHOULD')

    const byId = new Map<string, CheckResult>(failed.map((c) => [c.id, c]))
    for (let i = 0; i < (await articles.count()); i++) {
      const article = articles.nth(i)
      const check = byId.get((await article.getAttribute('data-check-id'))!)!
      expect(check).toBeDefined()
      expect((await article.getByTestId('failure-clause').innerText()).trim()).toBe(check.clause)
      expect(await article.getByTestId('failure-message').innerText()).toBe(check.message)
      // The replay command runs this check alone, with the run's seed.
      const replay = await article.getByTestId('failure-replay').innerText()
      expect(replay).toContain(`--only ${check.id}`)
      expect(replay).toContain(`--seed ${report.seed}`)
      expect(replay).toContain(`--profile ${report.profile}`)
      // Evidence is folded; opened, it shows each exchange and its curl line.
      const evidence = article.getByTestId('failure-evidence')
      expect(await evidence.getAttribute('open')).toBeNull()
      await evidence.locator('summary').click()
      expect(check.evidence.length).toBeGreaterThan(0)
      const curls = evidence.getByTestId('failure-curl')
      expect(await curls.count()).toBe(check.evidence.length)
      expect(await curls.first().isVisible()).toBe(true)
      const curl = await curls.first().innerText()
      expect(curl).toMatch(/^curl /)
      expect(curl).not.toMatch(/Bearer crm_/)
    }

    await articles.first().scrollIntoViewIfNeeded()
    await screenshot(page, 'report-failure-evidence.png')
    expect(dialogs).toEqual([])
    expect(errors).toEqual([])
  })

  test("a hostile server's markup in the evidence stays text: no script runs, no dialog opens", async () => {
    const reportDir = join(dir, 'hostile')
    await writeReportFiles(makeReport(), reportDir)
    const { page, dialogs, errors } = await open(join(reportDir, 'report.html'))
    const hostile = page.locator('[data-check-id="errors.not-found.hostile"][data-testid="failure"]')
    await hostile.getByTestId('failure-evidence').locator('summary').click()
    expect(await hostile.innerText()).toContain(HOSTILE_BODY)
    expect(await page.locator('body script, body img').count()).toBe(0)
    await screenshot(page, 'report-hostile.png')
    expect(dialogs).toEqual([])
    expect(errors).toEqual([])
  })

  test('without its Content-Security-Policy the page is still inert: the escaping alone keeps the hostile corpus text', async () => {
    const reportDir = join(dir, 'hostile-no-csp')
    await writeHostileCorpusReport(reportDir)
    const file = join(reportDir, 'report.html')
    const withoutCsp = readFileSync(file, 'utf8').replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '')
    expect(withoutCsp).not.toMatch(/Content-Security-Policy/)
    writeFileSync(file, withoutCsp)
    const { page, dialogs, errors } = await open(file)
    expect(await page.locator('body script, body img, body iframe, body object, body a[href^="javascript"]').count()).toBe(0)
    expect(await page.locator('body').innerText()).toContain('<script>alert(1)</script>')
    expect(dialogs).toEqual([])
    expect(errors).toEqual([])
  })

  test('under its own Content-Security-Policy (meta tag, and the same policy as a header): no script runs, nothing is fetched, the page reads as usual', async () => {
    const reportDir = join(dir, 'hostile-csp')
    await writeHostileCorpusReport(reportDir)
    const html = readFileSync(join(reportDir, 'report.html'), 'utf8')
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]
    expect(policy).toMatch(/default-src 'none'/)
    // One loopback server: the page (served with the policy as a header too, as a CI artefact viewer might), and
    // a canary that counts every other request: what a missed escape would make the browser fetch.
    const canary: string[] = []
    const server = createServer((req, res) => {
      if (req.url === '/report.html')
        return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': policy! }).end(html)
      canary.push(req.url ?? '')
      res.writeHead(200, { 'content-type': 'text/plain' }).end('window.__ran = true')
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      for (const url of [pathToFileURL(join(reportDir, 'report.html')).href, `${origin}/report.html`]) {
        const { page, dialogs, errors } = await open(url)
        // Chromium reports a request the policy refused as started, then failed ("csp"): what counts is that none
        // got an answer and the canary saw none.
        const answered: string[] = []
        const refused = new Set<string>()
        page.on('response', (response) => void (response.url() !== url && answered.push(response.url())))
        page.on('requestfailed', (request) => void refused.add(`${request.failure()?.errorText}: ${request.url()}`))
        // The page reads as usual: its inline style applies, the verdict and the hostile text (as text) show.
        expect(await page.getByTestId('verdict').isVisible()).toBe(true)
        expect(await page.evaluate("getComputedStyle(document.querySelector('header')).borderBottomWidth")).toBe('6px')
        expect(await page.locator('body').innerText()).toContain('<script>alert(1)</script>')
        expect(await page.locator('body script, body img, body iframe, body object, body a[href^="javascript"]').count()).toBe(0)
        // What a missed escape could put on the page, put there directly: the policy refuses every one of them.
        await page.evaluate(`(() => {
          window.__violations = []
          document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.effectiveDirective))
          const markup = [
            '<img src="${origin}/img">',
            '<img src="x" onerror="window.__ran = true; fetch(\\'${origin}/onerror\\')">',
            '<iframe src="${origin}/frame"></iframe>',
            '<link rel="stylesheet" href="${origin}/style.css">',
            '<object data="${origin}/object"></object>',
            '<base href="${origin}/base/">',
            '<form action="${origin}/form" method="get"><input name="q" value="secret"></form>',
          ]
          document.body.insertAdjacentHTML('beforeend', markup.join(''))
          const external = document.createElement('script')
          external.src = '${origin}/script.js'
          document.body.append(external)
          const inline = document.createElement('script')
          inline.textContent = 'window.__ran = true'
          document.body.append(inline)
          document.querySelector('form').submit()
        })()`)
        await expect.poll(() => page.evaluate('window.__violations.length')).toBeGreaterThanOrEqual(7)
        await page.waitForTimeout(300)
        expect(await page.evaluate('window.__ran === true')).toBe(false)
        expect(await page.evaluate('document.baseURI')).toBe(url)
        expect(canary).toEqual([])
        expect(answered).toEqual([])
        expect([...refused]).toEqual(expect.arrayContaining([`csp: ${origin}/img`, `csp: ${origin}/script.js`, `csp: ${origin}/style.css`]))
        expect([...refused].filter((line) => !line.startsWith('csp: '))).toEqual([])
        expect(dialogs).toEqual([])
        expect(errors).toEqual([])
        await page.close()
      }
    } finally {
      server.close()
    }
  })

  test('at 400 px (a phone, a narrow CI log pane): no horizontal page scroll; wide tables scroll inside their box', async () => {
    const reportDir = join(dir, 'narrow')
    await writeReportFiles(makeReport(), reportDir)
    const { page, errors } = await open(join(reportDir, 'report.html'))
    await page.setViewportSize({ width: 400, height: 900 })
    // Strings: the test's types have no DOM; the page evaluates them.
    const widths = (await page.evaluate('({ page: document.documentElement.scrollWidth, viewport: window.innerWidth })')) as { page: number; viewport: number }
    expect(widths.page, `the page is ${widths.page} px wide at ${widths.viewport} px`).toBeLessThanOrEqual(widths.viewport)
    // The verdict, the counts and the navigation are within the width, nothing cut.
    for (const box of [await page.getByTestId('verdict').boundingBox(), await page.locator('nav.sections').boundingBox()]) {
      expect(box).not.toBeNull()
      expect(box!.x).toBeGreaterThanOrEqual(0)
      expect(box!.x + box!.width).toBeLessThanOrEqual(400)
    }
    // Every table fits its box, or scrolls inside it.
    const tables = (await page.evaluate(
      "[...document.querySelectorAll('table')].map((t) => ({ right: t.getBoundingClientRect().right, scrolls: getComputedStyle(t).overflowX === 'auto' }))",
    )) as { right: number; scrolls: boolean }[]
    expect(tables.length).toBeGreaterThan(0)
    for (const table of tables) expect(table.right <= 400 || table.scrolls).toBe(true)
    await screenshot(page, 'report-400px.png')
    expect(errors).toEqual([])
  })
})
