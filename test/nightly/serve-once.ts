// One reference server kept running across runs, as QA's staging workspace is: the runs reach it as an external
// target (CRM_BASE_URL and the rest of the .env block `serve` prints), so what one run leaves the next one finds.
import { parse as parseDotenv } from 'dotenv'
import { expect } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CheckDefinition } from '../../src/checks/types.ts'
import { loadConfig } from '../../src/config/config.ts'
import { startReferenceServer, type ReferenceServer, type VariantName } from '../../src/reference/index.ts'
import { runSuite, type SuiteOutcome } from '../../src/run/run-suite.ts'
import type { PoolHealth } from '../../src/engine/fixture-pools.ts'
import type { RunReport } from '../../src/report/types.ts'
import { freePort } from '../free-port.ts'

/**
 * Nights are a day apart; these runs are seconds apart. The rate-limited key (20 a minute) that one run's 429
 * probe spends must refill in between, as it would overnight: a pause of this long gives it a few requests back.
 */
export const NIGHT_GAP_MS = 12_000

export interface KeptServer {
  server: ReferenceServer
  /** The .env block `serve` prints, as variables. */
  env: Record<string, string>
  /** One run against it (a night), with the variables given replacing the block's; the pool lines told before any check. */
  night(
    n: number,
    catalogue: CheckDefinition[],
    options?: { env?: Record<string, string>; only?: string[] },
  ): Promise<SuiteOutcome & { poolLines: PoolHealth[] }>
  close(): Promise<void>
}

/** A night's report: every check passed (nothing skipped), the verdict compliant, the probe's webhook retry proven. */
export function expectCompliant(report: RunReport, night: number): void {
  const notPassed = report.checks.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.status} ${c.message}`)
  expect(notPassed, `night ${night}`).toEqual([])
  expect(report.verdict, `night ${night}: ${report.verdictReasons.join('; ')}`).toBe('compliant')
  const retried = report.checks.find((c) => c.id === 'webhooks.retry.arrives')!
  expect(retried.observations.retryDelayMs, `night ${night}`).toBeGreaterThan(0)
}

/** Pools of three accepted quotations and three sent invoices: one of each for each of three nights. */
export function threeNightPools(server: ReferenceServer): Record<string, string> {
  const pools = server.fixturePools
  return {
    CRM_FIXTURE_ACCEPTED_QUOTATION_ID: pools.acceptedQuotationId.slice(0, 3).join(' '),
    // Commas separate ids too.
    CRM_FIXTURE_SENT_INVOICE_ID: pools.sentInvoiceId.slice(0, 3).join(','),
  }
}

/** `variant`: the legal variant the kept server plays (default: the default row). */
export async function keepServer(options: { variant?: VariantName } = {}): Promise<KeptServer> {
  const server = await startReferenceServer({ port: 0, rateLimitPerMinute: 1_000_000, variant: options.variant })
  const sinkPort = await freePort()
  server.setWebhookTarget(`http://127.0.0.1:${sinkPort}/`)
  const env = { ...parseDotenv(server.envBlock()), CRM_PROFILE: 'full', CRM_WEBHOOK_SINK_PORT: String(sinkPort) }
  const dir = mkdtempSync(join(tmpdir(), 'crmconf-nightly-'))
  let lastEnded = 0
  return {
    server,
    env,
    async night(n, catalogue, options = {}) {
      const wait = lastEnded + NIGHT_GAP_MS - Date.now()
      if (lastEnded > 0 && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      const config = loadConfig({ ...env, ...options.env }, { seed: n, envFile: false })
      let poolLines: PoolHealth[] = []
      const outcome = await runSuite({
        config,
        catalogue,
        only: options.only,
        runId: `20260101-00000${n}-night${n}`,
        reportDir: join(dir, `night-${n}`),
        onPools: (pools) => (poolLines = pools),
      })
      lastEnded = Date.now()
      return { ...outcome, poolLines }
    },
    async close() {
      await server.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
