// §3: the status values of quotations, invoices, orders, cases and leads (beyond the named ones) are not shown.
// What the server uses is reported as information.
import { defineCheck } from '../../src/checks/index.ts'
import type { CheckDefinition, ResourceName } from '../../src/checks/index.ts'
import { listedOnce, recordsOf } from '../shared/fixtures.ts'

const area = 'state'

const OPEN_STATUSES: ResourceName[] = ['quotation', 'invoice', 'order', 'case', 'lead']

export const nameChecks: CheckDefinition[] = [
  defineCheck({
    id: 'state.names',
    clauses: ['§3'],
    level: 'INFO',
    area,
    title: 'The status values seen on one page of quotations, invoices, orders, cases and leads',
    async run(ctx) {
      let seen = 0
      for (const resource of OPEN_STATUSES) {
        const page = await listedOnce(ctx, resource)
        const records = recordsOf(page)
        if (page.status !== 200) continue
        seen++
        ctx.observe(`${resource}.status`, [...new Set(records.map((r) => r.status))].sort())
      }
      if (seen === 0) ctx.skip('no list answered 200')
    },
  }),
]
