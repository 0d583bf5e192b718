// A transport for tests against a server of their own on this machine (not part of the package: tsconfig.build.json
// leaves src/http/test-fixtures/ out): one made-up main key, nothing to mask, two requests in flight.
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Redactor } from '../redact.ts'
import { Transport } from '../transport.ts'

export function localTransport(server: Server): Transport {
  return new Transport({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    keys: { main: 'crm_ws_main_0123456789abcdef' },
    redactor: new Redactor(),
    timeoutMs: 5_000,
    maxResponseBytes: 1024 * 1024,
    concurrency: 2,
    requestBudget: 100,
    maxRetryAfterS: 10,
  })
}
