// §2 contact: `accountId` is "writable but not in the record" and "sets the primary account".
import { defineCheck, createRecord, runLabel } from '../../src/checks/index.ts'
import type { CheckDefinition } from '../../src/checks/index.ts'
import { createdAndRead, sharedAccount, uniqueEmail } from './shared.ts'

const area = 'side-effects'

export const contactAccountChecks: CheckDefinition[] = [
  defineCheck({
    id: 'side-effects.contact.primary-account',
    clauses: ['§2', '§4.4'],
    level: 'MUST',
    area,
    title: 'A contact created with accountId has that account as its primaryAccountId',
    writes: 'safe',
    async run(ctx) {
      const account = await sharedAccount(ctx)
      const { response } = await createRecord(
        ctx,
        'contact',
        { firstName: 'Crmconf', lastName: runLabel(ctx, 'contact'), email: uniqueEmail(ctx, 'contact'), accountId: account.id },
        { validate: false },
      )
      const { got, views } = await createdAndRead(ctx, 'contact', response)
      for (const [where, res] of views) {
        if (res.body?.primaryAccountId !== account.id) {
          ctx.fail(`${where}: primaryAccountId is ${JSON.stringify(res.body?.primaryAccountId)}, expected the accountId sent, ${account.id} (§2)`, {
            expected: 'accountId "sets the primary account" (§2 contact)',
            exchanges: [response.exchange, got.exchange],
          })
        }
      }
    },
  }),
]
