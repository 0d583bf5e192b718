// §4.4 update /opportunities/{id}: "Pipeline, stage and currency are not updatable here." A server may refuse
// an update that sends them or ignore them; either way the record keeps its pipeline, stage and currency.
import { defineCheck, expectStatus, createRecord, itemPath, runLabel, updateRecord, RESOURCES } from '../../src/checks/index.ts'
import type { CheckDefinition, AnyRecord } from '../../src/checks/index.ts'
import { randomUUID } from 'node:crypto'
import { isStateRefusal, refusalOf } from '../shared/refusal.ts'
import { changedFields, diffOf } from '../shared/record-diff.ts'

const area = 'side-effects'

const FIXED = ['pipelineId', 'stageKey', 'currency'] as const

/** Values that differ from the record's, preferring ones the workspace really uses (a listed page). */
function otherValues(record: AnyRecord, listed: AnyRecord[]): AnyRecord {
  const pipelineId = listed.map((o) => o.pipelineId).find((p) => typeof p === 'string' && p !== record.pipelineId) ?? randomUUID()
  const stageKey = listed.map((o) => o.stageKey).find((s) => typeof s === 'string' && s !== record.stageKey) ?? 'crmconf_stage'
  return { pipelineId, stageKey, currency: record.currency === 'USD' ? 'MYR' : 'USD' }
}

export const opportunityChecks: CheckDefinition[] = [
  defineCheck({
    id: 'side-effects.opportunity.fixed-fields',
    clauses: ['§4.4'],
    level: 'MUST',
    area,
    title: 'An opportunity update that sends pipelineId, stageKey and currency leaves all three unchanged',
    writes: 'safe',
    async run(ctx) {
      const { record } = await createRecord(ctx, 'opportunity', { name: runLabel(ctx, 'opportunity'), amountSen: 100_000 }, { validate: false })
      const page = await ctx.api.get(RESOURCES.opportunity.path, { limit: 100 })
      const listed: AnyRecord[] = Array.isArray(page.body?.data) ? page.body.data : []
      const name = runLabel(ctx, 'opportunity renamed')
      const sent = { name, ...otherValues(record, listed) }
      const res = await updateRecord(ctx, 'opportunity', record.id, sent)
      if (!res.ok && !isStateRefusal(res.status)) {
        ctx.fail(`update sending pipeline, stage and currency: status is ${res.status}, expected a 2xx or a 4xx refusal (§4.4)`, { exchanges: [res.exchange] })
      }
      ctx.observe('update', res.ok ? { status: res.status } : refusalOf(res))
      if (res.ok && res.body && typeof res.body === 'object') {
        const changed = changedFields(record, res.body).filter((f) => (FIXED as readonly string[]).includes(f))
        if (changed.length > 0) {
          ctx.fail(`the update response shows ${changed.join(', ')} changed (§4.4 "not updatable here")`, {
            exchanges: [res.exchange],
            data: diffOf(record, res.body, changed),
          })
        }
      }
      const got = await ctx.api.get(itemPath('opportunity', record.id))
      expectStatus(got, 200, '§4.2')
      const changed = changedFields(record, got.body).filter((f) => (FIXED as readonly string[]).includes(f))
      if (changed.length > 0) {
        ctx.fail(`after the update, ${changed.join(', ')} changed (§4.4 "not updatable here")`, {
          expected: 'pipelineId, stageKey and currency as created',
          exchanges: [res.exchange, got.exchange],
          data: diffOf(record, got.body, changed),
        })
      }
      if (res.ok) ctx.observe('otherFieldsApplied', got.body.name === name)
    },
  }),
]
