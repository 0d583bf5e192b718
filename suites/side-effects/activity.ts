// §2 activity `body` and §8: "short preview, up to 500 characters". A longer body is sent; the record keeps at
// most 500, or the server refuses any body over 500 as input. Activities cannot be deleted (§4.2): full profile.
import { defineCheck, runLabel, LIMITS, RESOURCES } from '../../src/checks/index.ts'
import type { CheckDefinition } from '../../src/checks/index.ts'
import { namesSentField } from '../shared/refusal.ts'
import { createdAndRead, expectPostedCreate, sharedAccount } from './shared.ts'

const area = 'side-effects'

const MAX = LIMITS.activityBodyMaxLength
/** ASCII only, so every way of counting characters agrees. */
const LONG_BODY = `crmconf activity preview ${'abcdefghij'.repeat(60)}`

export const activityChecks: CheckDefinition[] = [
  defineCheck({
    id: 'side-effects.activity.body-preview',
    clauses: ['§8', '§2'],
    level: 'MUST',
    area,
    title: `An activity logged with a body over ${MAX} characters comes back with a body of at most ${MAX}`,
    writes: 'full',
    async run(ctx) {
      const account = await sharedAccount(ctx)
      const sent = { kind: 'note', title: runLabel(ctx, 'activity'), body: LONG_BODY, accountId: account.id }
      let created = await ctx.api.post(RESOURCES.activity.path, sent)
      // §8 leaves maximum string lengths open: a server may refuse a long body instead of cutting it. Then one
      // character over the limit must be refused too (no record can hold more), or it is accepted and judged.
      if (!created.ok && namesSentField(created, { body: LONG_BODY })) {
        const justOver = LONG_BODY.slice(0, MAX + 1)
        const over = await ctx.api.post(RESOURCES.activity.path, { ...sent, body: justOver })
        if (!over.ok && namesSentField(over, { body: justOver })) {
          ctx.observe('longBody', `refused as input from ${MAX + 1} characters`)
          return
        }
        created = over
      }
      expectPostedCreate(ctx, 'activity', created)
      const { got, views } = await createdAndRead(ctx, 'activity', created)
      for (const [where, res] of views) {
        const body = res.body?.body
        if (body === null) ctx.skip(`${where}: the body is null: the preview limit cannot be observed`)
        if (typeof body === 'string' && body.length > MAX) {
          ctx.fail(`${where}: activity body has ${body.length} characters, expected at most ${MAX} (§8)`, {
            expected: `a short preview, up to ${MAX} characters (§2, §8)`,
            exchanges: [res.exchange],
          })
        }
      }
      const preview = String(got.body?.body ?? '')
      ctx.observe('previewLength', preview.length)
      ctx.observe('previewIsPrefix', LONG_BODY.startsWith(preview.replace(/(…|\.\.\.)$/, '')))
    },
  }),
]
