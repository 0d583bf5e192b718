// §6.7 "Acknowledgement: any 2xx status": a delivery the receiver answered 202 or 204 is delivered, and is not
// sent again. The sink answers the first case.created of two cases of the run's own 202 and 204, then watches
// for the same webhook-id again for as long as the server took to retry the probe's 503 (probe.ts), twice over:
// a server that retries whatever is not 200 shows it within that time. Without a retry of the 503 to measure,
// the server's schedule is unknown and nothing can be concluded (webhooks.retry.arrives judges that silence).
import { createRecord, defineCheck, runLabel } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, Delivery } from '../../src/checks/index.ts'
import { chosenAnswers } from './answers.ts'
import { carries, summary } from './deliveries.ts'
import { bouncedAttempt, probeRetry, timeoutMs, unprovenRetry, watchesDeliveries } from './probe.ts'

const area = 'webhooks'

/** 2xx answers other than 200 that §6.7's "any 2xx" covers. */
const OTHER_SUCCESSES = [202, 204] as const

/** The watch for a repeat lasts twice the server's own retry delay, and at least this long. */
const MIN_WATCH_MS = 2_000

/** A case whose case.created the sink answers `status`; its first delivery, or undefined when none came. */
async function acknowledged(ctx: CheckContext, status: number): Promise<{ id: string; first: Delivery | undefined }> {
  const label = runLabel(ctx, `webhook ack ${status}`)
  let id: string | undefined
  const answers = await chosenAnswers(ctx)
  answers.push({
    matches: (event) =>
      event.type === 'case.created' && ((id !== undefined && event.data?.id === id) || JSON.stringify(event.data?.object ?? {}).includes(label)),
    status,
  })
  const { record } = await createRecord(ctx, 'case', { subject: label, description: `crm-conformance: answered ${status} (§6.7)` }, { validate: false })
  id = String(record.id)
  const sink = await ctx.session.sink()
  const first = await sink.waitFor((d) => d.authentic && carries(d, 'case.created', id!), timeoutMs(ctx))
  return { id, first }
}

export const acknowledgeChecks: CheckDefinition[] = [
  defineCheck({
    id: 'webhooks.ack.any-2xx',
    clauses: ['§6.7'],
    level: 'MUST',
    area,
    title: 'A delivery answered 202 or 204 is acknowledged: it is not delivered again',
    ...watchesDeliveries(3),
    async run(ctx) {
      const { probe, first: bounced } = await bouncedAttempt(ctx)
      const retried = await probeRetry(ctx, probe, bounced)
      if (retried === undefined)
        return ctx.skip(
          (await unprovenRetry(ctx, bounced)) ??
            `the server did not retry the probe's ${bounced.status} within CRM_WEBHOOK_RETRY_WAIT_S, so how long a retry of a 2xx would take is unknown (webhooks.retry.arrives judges that)`,
        )
      const delayMs = Math.max(0, Date.parse(retried.receivedAt) - Date.parse(bounced.receivedAt))
      const watchMs = Math.max(MIN_WATCH_MS, 2 * delayMs)
      ctx.observe('watchedMs', watchMs)
      const sink = await ctx.session.sink()
      const seen = await Promise.all(OTHER_SUCCESSES.map((status) => acknowledged(ctx, status)))
      const missing = OTHER_SUCCESSES.filter((_, i) => seen[i]!.first === undefined)
      if (missing.length === OTHER_SUCCESSES.length)
        ctx.skip(`no signed case.created for the run's acknowledgement cases within ${ctx.config.webhookTimeoutS} s (webhooks.case.created judges that)`)
      const repeats: { status: number; first: Delivery; again: Delivery }[] = []
      await Promise.all(
        seen.map(async ({ first }, i) => {
          if (first === undefined) return
          const left = Date.parse(first.receivedAt) + watchMs - Date.now()
          const again = await sink.waitFor((d) => d.seq > first.seq && d.authentic && d.webhookId === first.webhookId, Math.max(0, left))
          if (again !== undefined) repeats.push({ status: OTHER_SUCCESSES[i]!, first, again })
        }),
      )
      if (repeats.length > 0) {
        const answered = repeats.map((r) => r.status).join(' and ')
        ctx.fail(`the sink answered case.created ${answered} and the server delivered it again under the same webhook-id (§6.7: any 2xx acknowledges)`, {
          expected: `no further delivery of an event answered ${OTHER_SUCCESSES.join(' or ')}; the server's retry of a 503 came after ${delayMs} ms, the watch lasted ${watchMs} ms`,
          exchanges: [],
          data: { deliveries: repeats.flatMap((r) => [summary(r.first), summary(r.again)]) },
        })
      }
      if (missing.length > 0) ctx.note(`no case.created came for the case answered ${missing.join(', ')}: judged on the other`)
    },
  }),
]
