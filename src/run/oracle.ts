// The explorer's oracle: a fresh reference server (default choices, no faults, seeded like any other) answering
// in this process, without the network or a rate limit that matters. The run path opens it for the session
// (src/engine/session.ts hands the factory to the checks), so suites/ never reaches src/reference/.
import type { Oracle, OracleAnswer } from '../checks/types.ts'
import type { ApiRequest } from '../http/transport.ts'
import type { KeyRole } from '../vocabulary.ts'

/** Far above anything an exploration sends: the model must never answer 429. */
const ORACLE_LIMIT_PER_MINUTE = 1_000_000

export async function openOracle(): Promise<Oracle> {
  const { startReferenceServer } = await import('../reference/index.ts')
  const server = await startReferenceServer({ rateLimitPerMinute: ORACLE_LIMIT_PER_MINUTE })
  return {
    async send(req: ApiRequest, role: KeyRole = 'main'): Promise<OracleAnswer> {
      const url = new URL(`${server.baseUrl}${req.path}`)
      for (const [name, value] of Object.entries(req.query ?? {})) if (value !== undefined && value !== null) url.searchParams.set(name, String(value))
      const headers: Record<string, string> = { accept: 'application/json', ...req.headers }
      if (req.auth === undefined || req.auth === 'key') headers.authorization = `Bearer ${server.keys[role]}`
      else if (req.auth !== 'none') headers.authorization = req.auth.header
      if (req.idempotencyKey !== undefined) headers['idempotency-key'] = req.idempotencyKey
      const body = req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body))
      if (body !== undefined) headers['content-type'] = 'application/json'
      const response = await server.handle(new Request(url, { method: req.method, headers, body }))
      const text = await response.text()
      let parsed: unknown
      try {
        parsed = text === '' ? undefined : JSON.parse(text)
      } catch {
        parsed = text
      }
      return { status: response.status, headers: Object.fromEntries([...response.headers].map(([k, v]) => [k.toLowerCase(), v])), body: parsed }
    },
    mirror: async (resource, record) => server.mirror(resource, record),
    close: () => server.close(),
  }
}
