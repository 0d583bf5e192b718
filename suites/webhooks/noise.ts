// What reached the sink that cannot be shown to be the server's deliveries about this run: forged or unsigned
// posts, byte-identical copies of an attempt (a replay, or the server's own retry within the same second), stale or
// future timestamps without the secret's signature, oversized bodies, slow or broken clients, events of records the
// run did not create. Information only: noise never decides a verdict (deliveries.ts attribute), and the sink keeps
// a bounded amount of it (src/webhooks/sink.ts SINK_DEFAULTS).
import { defineCheck } from '../../src/checks/index.ts'
import type { CheckDefinition } from '../../src/checks/index.ts'
import { attribute, summary } from './deliveries.ts'
import { settle, waitBudgetMs } from './probe.ts'

const area = 'webhooks'

const SHOWN = 3

export const noiseChecks: CheckDefinition[] = [
  defineCheck({
    id: 'webhooks.sink.noise',
    clauses: ['§6.5', '§6.6'],
    level: 'INFO',
    area,
    title: 'Requests to the sink that the server did not send about this run are counted as noise, never judged',
    writes: 'none',
    webhooks: true,
    phase: 'last',
    timeoutMs: waitBudgetMs(0),
    async run(ctx) {
      const sink = await ctx.session.sink()
      await settle(sink)
      const { counted, noise, dropped } = attribute(sink)
      const counts = sink.counts()
      const total = Object.values(noise).reduce((n, k) => n + k, 0)
      ctx.observe('received', counts.received)
      ctx.observe('counted', counted.length)
      ctx.observe('noise', total)
      ctx.observe('noiseByReason', noise)
      if (dropped > 0) ctx.observe('dropped', dropped)
      if (counts.tlsFailures > 0) ctx.observe('tlsFailures', counts.tlsFailures)
      if (total > 0) {
        ctx.note(
          `${total} of ${counts.received} requests to the sink were not shown to be the server's deliveries about this run, and were not judged (replayed_id counts byte-identical copies of an attempt: a replay and a retry within the same second look alike): ${JSON.stringify(noise)}`,
        )
        ctx.observe('noiseExamples', sink.noiseSamples.slice(-SHOWN).map(summary))
      }
    },
  }),
]
