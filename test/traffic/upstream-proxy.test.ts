// Behind the company's proxy: the validating proxy sends what it forwards through HTTP_PROXY, as a suite run does
// (the configuration loader reads it; undici's EnvHttpProxyAgent goes through it).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { startReferenceServer } from '../../src/reference/index.ts'
import { startForwardProxy } from '../../src/selfcheck/forward-proxy.ts'
import { proxyCommand } from '../../src/traffic/proxy-command.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-upstream-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('forwards through HTTP_PROXY when the environment names one', async () => {
  const server = await startReferenceServer({ rateLimitPerMinute: 100_000 })
  const forward = await startForwardProxy()
  try {
    let answered: number | undefined
    const { exitCode } = await proxyCommand({
      target: server.apiBaseUrl,
      port: 0,
      reportDir: join(dir, 'report'),
      write: () => {},
      env: { HTTP_PROXY: forward.url, CRM_API_KEY: server.keys.main },
      until: async (proxy) => {
        const response = await fetch(`${proxy.url}/me`, { headers: { authorization: `Bearer ${server.keys.main}` } })
        answered = response.status
        await response.arrayBuffer()
        return 'done'
      },
    })
    expect(answered).toBe(200)
    expect(forward.requests + forward.tunnels).toBeGreaterThan(0)
    expect(exitCode).toBe(0)
  } finally {
    await forward.close()
    await server.close()
  }
})
