// §1.6 "Accounts and contacts are moved to a recycle bin on deletion": after the delete (§4.2 "move to recycle
// bin") the API no longer returns them, neither by id (404, §7.6) nor in a list filtered to them (§4.3 email).
import { defineCheck, expectStatus, createRecord, deleteRecord, itemPath, runLabel, readUntil, RESOURCES } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, AnyRecord } from '../../src/checks/index.ts'
import { uniqueEmail } from './shared.ts'

const area = 'side-effects'

interface Recyclable {
  resource: 'account' | 'contact'
  body: (ctx: CheckContext, email: string) => AnyRecord
}

const RECYCLABLE: Recyclable[] = [
  { resource: 'account', body: (ctx, email) => ({ name: runLabel(ctx, 'recycled account'), email }) },
  { resource: 'contact', body: (ctx, email) => ({ firstName: 'Crmconf', lastName: runLabel(ctx, 'recycled contact'), email }) },
]

const listedIds = (body: any): string[] => (Array.isArray(body?.data) ? body.data.map((r: AnyRecord) => r?.id) : [])

function recycleCheck({ resource, body }: Recyclable): CheckDefinition {
  const path = RESOURCES[resource].path
  return defineCheck({
    id: `side-effects.recycle-bin.${resource}`,
    clauses: ['§1.6', '§4.2', '§7.6'],
    level: 'MUST',
    area,
    title: `A deleted ${resource} is no longer returned: GET answers 404 and a list filtered to it omits it`,
    writes: 'safe',
    async run(ctx) {
      const email = uniqueEmail(ctx, `recycled ${resource}`)
      const { record } = await createRecord(ctx, resource, body(ctx, email), { validate: false })
      const list = () => ctx.api.get(path, { email, limit: 100 })
      // Listed first (a list fed by an index shows the create late), so that its absence after the delete means something.
      const listHalf = (await readUntil(ctx, list, (l) => listedIds(l.body).includes(record.id))).shown
      if (!listHalf) ctx.note(`the email filter did not list the ${resource} before its deletion: only the GET half is verified`)
      const deleted = await deleteRecord(ctx, resource, record.id)
      if (!deleted.ok) ctx.fail(`move to recycle bin: status is ${deleted.status}, expected a 2xx (§4.2)`, { exchanges: [deleted.exchange] })
      const got = await ctx.api.get(itemPath(resource, record.id))
      if (got.status !== 404 && got.status !== 410) {
        ctx.fail(`after the delete, GET ${path}/{id} answers ${got.status}, expected 404 (§1.6, §7.6)`, {
          expected: `a ${resource} in the recycle bin is no longer returned`,
          exchanges: [deleted.exchange, got.exchange],
        })
      }
      ctx.observe('getAfterDelete', got.status)
      const { answer: listedAfter } = await readUntil(ctx, list, (l) => l.status !== 200 || !listedIds(l.body).includes(record.id))
      expectStatus(listedAfter, 200, '§4.3')
      if (listedIds(listedAfter.body).includes(record.id)) {
        ctx.fail(`after the delete, ${path}?email= still lists the ${resource} ${ctx.config.consistencyWindowMs} ms after the delete (§1.6)`, {
          expected: `a ${resource} in the recycle bin is no longer listed`,
          exchanges: [deleted.exchange, listedAfter.exchange],
        })
      }
      if (!listHalf) ctx.observe('listHalfVerified', false)
    },
  })
}

export const recycleBinChecks: CheckDefinition[] = RECYCLABLE.map(recycleCheck)
