// §4.2, §7.6: "404: record does not exist", on every operation that takes an id, not only on the GET the
// read-only area tries: an update, a replace and a delete of a well-formed id that names nothing are 404 with the
// error envelope, and a write must not create the record it names (an upsert): GET of the id stays 404.
// Generated from §4.2 (RESOURCES[*].ops); cost: one write, and a GET after an update or a replace (~25 requests).
import { expectErrorEnvelope, defineCheck, itemPath, trackCreated, RESOURCE_LIST, RESOURCES } from '../../src/checks/index.ts'
import type { CheckDefinition, ResourceName } from '../../src/checks/index.ts'
import { randomUUID } from 'node:crypto'
import { runSku } from '../shared/bodies.ts'
import { namesSentField } from '../shared/refusal.ts'
import { changeBody, itemWritesOf, sendItemWrite, type ItemWrite } from '../shared/item-writes.ts'

const area = 'records'

const VERB: Record<ItemWrite, string> = { update: 'An update', replace: 'A replace', delete: 'A delete' }

function unknownIdCheck(resource: ResourceName, op: ItemWrite): CheckDefinition {
  const spec = RESOURCES[resource]
  const writes = op !== 'delete'
  return defineCheck({
    id: `${area}.${resource}.${op}-unknown-id`,
    clauses: ['§7.6', '§4.2', '§7.1'],
    level: 'MUST',
    area,
    title: writes
      ? `${VERB[op]} of ${spec.path}/{id} for an id no ${resource} has answers 404 with the error envelope and creates no record under that id`
      : `A delete of ${spec.path}/{id} for an id no ${resource} has answers 404 with the error envelope`,
    writes: 'safe',
    async run(ctx) {
      const id = randomUUID()
      // The few values a replace body copies from the record it replaces (suites/shared/bodies.ts REPLACE_BODIES).
      const stand = { title: 'unknown', sku: runSku(ctx), name: 'unknown', currency: 'MYR', unit: 'unit' }
      const body = changeBody(ctx, resource, op, stand, `unknown id ${op}`)
      const res = await sendItemWrite(ctx, resource, op, id, body, ctx.api)
      if (res.ok && writes) trackCreated(ctx, resource, id)
      const named = body && namesSentField(res, body)
      if (named) ctx.skip(`the server refused the body (details name ${named}) before looking the record up; which comes first is not shown`)
      if (res.ok) {
        ctx.fail(`${res.exchange.request.method} ${spec.path}/${id}, an id no ${resource} has, answered ${res.status}, expected 404 (§7.6)`, {
          expected: '404: the record does not exist (§7.6); a write never creates the record its path names (§4.2: records are created by POST)',
          exchanges: [res.exchange],
        })
      }
      expectErrorEnvelope(res, '§7.6', { status: 404 })
      if (!writes) return
      const after = await ctx.api.get(itemPath(resource, id))
      if (after.status !== 404) {
        if (after.ok) trackCreated(ctx, resource, id)
        ctx.fail(`after a refused ${op} of an unknown id, GET ${spec.path}/${id} answers ${after.status}, expected 404: the write created the record`, {
          expected: 'a write to an id that names nothing changes nothing (§7.6)',
          exchanges: [res.exchange, after.exchange],
        })
      }
    },
  })
}

export const unknownIdChecks: CheckDefinition[] = RESOURCE_LIST.flatMap((r) => itemWritesOf(r.name).map((op) => unknownIdCheck(r.name, op)))
