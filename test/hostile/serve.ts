// Child-process entry (started by ./process.ts through bin/run-ts.mjs with an IPC channel): a reference
// server and the hostile server in front of it. In their own process they answer (or refuse to) on time
// however busy the suite under test keeps its own event loop.
import { startReferenceServer } from '../../src/reference/index.ts'
import { HOSTILE_MODES, startHostileServer } from './server.ts'
import type { HostileProcessMessage, HostileProcessReady } from './process.ts'

const options = JSON.parse(process.argv[2] ?? '{}') as { diesAfter?: number; hugeBytes?: number }
const reference = await startReferenceServer({ rateLimitPerMinute: 1_000_000 })
const hostile = await startHostileServer({ upstream: new URL(reference.baseUrl).origin, webhookSecret: reference.webhookSecret, ...options })

const ready: HostileProcessReady = {
  type: 'ready',
  baseUrls: Object.fromEntries(HOSTILE_MODES.map((mode) => [mode, hostile.baseUrl(mode)])) as HostileProcessReady['baseUrls'],
  redirectOrigin: hostile.redirectOrigin,
  referenceBaseUrl: reference.baseUrl,
  reference: {
    keys: reference.keys,
    restrictedScopes: reference.restrictedScopes,
    fixtures: reference.fixtures,
    webhookSecret: reference.webhookSecret,
  },
}

async function stop(): Promise<void> {
  await hostile.close()
  await reference.close()
  process.exit(0)
}

process.on('message', (message: HostileProcessMessage) => {
  if (message.type === 'stats')
    process.send!({ type: 'stats', id: message.id, received: hostile.received, methods: hostile.methods, redirectHits: hostile.redirectHits })
  if (message.type === 'close') void stop()
})
// The test process went away (a crash, a kill): never outlive it.
process.on('disconnect', () => void stop())
process.send!(ready)
