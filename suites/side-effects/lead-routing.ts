// §1.6 "New leads are routed to a sales rep": a lead created without ownerId gets an owner.
import { defineCheck, createRecord, itemPath, runLabel, readUntil } from '../../src/checks/index.ts'
import type { CheckDefinition, AnyRecord } from '../../src/checks/index.ts'
import { uniqueEmail } from './shared.ts'

const area = 'side-effects'

/**
 * Routing may run after the create, from a queue (§1.6 gives no deadline): the lead is read again for up to 15 s,
 * and a server that routes at once pays nothing. Longer than the list window: a queue may be slower than an index.
 */
const ROUTING_WINDOW_MS = 15_000

const hasOwner = (lead: AnyRecord | undefined): boolean => typeof lead?.ownerId === 'string' && lead.ownerId !== ''

export const leadChecks: CheckDefinition[] = [
  defineCheck({
    id: 'side-effects.lead.routed',
    clauses: ['§1.6'],
    level: 'MUST',
    area,
    title: 'A lead created without ownerId is routed: it gets an owner',
    writes: 'safe',
    timeoutMs: 30_000,
    async run(ctx) {
      const { record, response } = await createRecord(
        ctx,
        'lead',
        { fullName: runLabel(ctx, 'lead'), email: uniqueEmail(ctx, 'lead'), source: 'api' },
        { validate: false },
      )
      const { answer: latest } = await readUntil(
        ctx,
        () => ctx.api.get(itemPath('lead', record.id)),
        (r) => hasOwner(r.body),
        {
          first: response,
          lag: 'routingLagMs',
          windowMs: Math.max(ROUTING_WINDOW_MS, ctx.config.consistencyWindowMs),
        },
      )
      if (!hasOwner(latest.body)) {
        ctx.fail(`a new lead without ownerId still has ownerId ${JSON.stringify(latest.body?.ownerId)} (§1.6)`, {
          expected: 'new leads are routed to a sales rep: ownerId set',
          exchanges: [response.exchange, latest.exchange],
        })
      }
      ctx.observe('routedAtCreate', hasOwner(response.body))
      const owner = await ctx.api.get(itemPath('user', latest.body.ownerId))
      ctx.observe('ownerIsListedUser', owner.status === 200)
    },
  }),
]
