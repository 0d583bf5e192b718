// §1.6 "New leads are routed to a sales rep": a lead created without ownerId gets an owner.
import { defineCheck } from '../../src/checks/define.ts'
import type { CheckDefinition } from '../../src/checks/types.ts'
import { createRecord, itemPath, runLabel, type AnyRecord } from '../../src/engine/operations.ts'
import type { ApiResponse } from '../../src/http/api-client.ts'
import { uniqueEmail } from './shared.ts'

/** Routing may run just after the create; the lead is read again this many times, this far apart. */
const ROUTING_READS = 3
const ROUTING_WAIT_MS = 1_000

const hasOwner = (lead: AnyRecord | undefined): boolean => typeof lead?.ownerId === 'string' && lead.ownerId !== ''

export const leadChecks: CheckDefinition[] = [
  defineCheck({
    id: 'side-effects.lead.routed',
    clauses: ['§1.6'],
    level: 'MUST',
    area: 'side-effects',
    title: 'A lead created without ownerId is routed: it gets an owner',
    writes: 'safe',
    timeoutMs: 30_000,
    async run(ctx) {
      const { record, response } = await createRecord(ctx, 'lead', { fullName: runLabel(ctx, 'lead'), email: uniqueEmail(ctx, 'lead'), source: 'api' }, { validate: false })
      let latest: ApiResponse = response
      for (let read = 0; read < ROUTING_READS && !hasOwner(latest.body); read++) {
        if (read > 0) await new Promise((r) => setTimeout(r, ROUTING_WAIT_MS))
        latest = await ctx.api.get(itemPath('lead', record.id))
      }
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
