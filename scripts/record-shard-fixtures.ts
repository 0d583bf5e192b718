// node bin/run-ts.mjs scripts/record-shard-fixtures.ts: records the scripted client's traffic (test/traffic/
// scripted-client.ts through the proxy, keys masked) against the clean reference server and a handful of faults
// that cross-exchange rules catch (by key, by collection, at the end), as gzipped NDJSON under test/traffic/fixtures/shards/:
// what test/traffic/shards.test.ts judges whole, in shards and in jobs, without starting a server each time.
import { mkdirSync, writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { join, resolve } from 'node:path'
import { ndjsonLine } from '../src/traffic/ndjson.ts'
import { runProxied } from '../test/traffic/harness.ts'

export const SHARD_FIXTURE_FAULTS = [
  'records.change-not-persisted',
  'pagination.skip-boundary-record',
  'filters.email-case-sensitive',
  'auth.scopes-ignored',
  'auth.item-any-workspace',
  'idempotency.ignored',
  'rate-limits.no-429',
  'state.delete-non-draft',
  'bodies.update-resets-unsent-fields',
]

const dir = resolve(import.meta.dirname, '..', 'test', 'traffic', 'fixtures', 'shards')
mkdirSync(dir, { recursive: true })
for (const fault of ['clean', ...SHARD_FIXTURE_FAULTS]) {
  const run = await runProxied(fault === 'clean' ? {} : { faults: [fault] })
  // Gzipped: ten recordings are 3.5 MB as text, 250 kB so.
  writeFileSync(join(dir, `${fault}.ndjson.gz`), gzipSync(run.exchanges.map(ndjsonLine).join(''), { level: 9 }))
  console.log(
    `${fault}: ${run.exchanges.length} exchanges, server failures: ${
      run.rows
        .filter((r) => r.status === 'failed' && r.side === 'server')
        .map((r) => r.id)
        .join(' ') || 'none'
    }`,
  )
}
