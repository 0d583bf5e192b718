// §2 comment: `body` is "sanitised HTML"; §4.4 POST /comments takes `html` "(HTML body, sanitised)". The probe is
// an internal note (no email goes out, §1.6 is about public comments), but comments cannot be deleted: full.
import { defineCheck, createRecord, runLabel, RESOURCES } from '../../src/checks/index.ts'
import type { CheckDefinition } from '../../src/checks/index.ts'
import { unsafeParts } from './html-safety.ts'
import { createdAndRead, expectPostedCreate } from './shared.ts'

const area = 'side-effects'

function probeHtml(marker: string): string {
  return [
    `<p>${marker} harmless text</p>`,
    '<script>alert(1)</script>',
    '<img src="https://example.com/crmconf.png" alt="crmconf" onerror="alert(2)">',
    '<a href="javascript:alert(3)">crmconf link</a>',
  ].join('')
}

export const commentChecks: CheckDefinition[] = [
  defineCheck({
    id: 'side-effects.comment.sanitised',
    clauses: ['§2', '§4.4'],
    level: 'MUST',
    area,
    title: 'Comment HTML comes back sanitised: no script, no event handler, no javascript: URL, harmless text kept',
    writes: 'full',
    async run(ctx) {
      const { record: kase } = await createRecord(
        ctx,
        'case',
        { subject: runLabel(ctx, 'case'), description: 'crmconf: comment sanitising probe' },
        { validate: false },
      )
      const marker = `crmconf-keep-${Math.random().toString(36).slice(2, 10)}`
      let created = await ctx.api.post(RESOURCES.comment.path, { caseId: kase.id, kind: 'internal', html: probeHtml(marker) })
      // A server may refuse unsafe HTML instead of cleaning it (nothing unsafe is stored either way); then the
      // harmless part alone must be accepted and kept, and is judged below.
      if (created.status === 400) {
        ctx.observe('unsafeHtml', 'refused with 400')
        created = await ctx.api.post(RESOURCES.comment.path, { caseId: kase.id, kind: 'internal', html: `<p>${marker} harmless text</p>` })
      }
      expectPostedCreate(ctx, 'comment', created)
      const { got, views } = await createdAndRead(ctx, 'comment', created)
      for (const [where, res] of views) {
        const body = res.body?.body
        if (typeof body !== 'string') ctx.fail(`${where}: comment body is ${JSON.stringify(body)}, expected a string (§2)`, { exchanges: [res.exchange] })
        const unsafe = unsafeParts(body)
        if (unsafe.length > 0) {
          ctx.fail(`${where}: comment body keeps ${unsafe.join(', ')} (§2 "sanitised HTML")`, {
            expected: 'no <script>, no on*= attribute, no javascript: URL',
            exchanges: [res.exchange],
            data: { body },
          })
        }
        if (!body.includes(marker)) {
          ctx.fail(`${where}: comment body lost the harmless text ${JSON.stringify(marker)} (§2)`, {
            expected: 'sanitising removes the unsafe parts only',
            exchanges: [res.exchange],
            data: { body },
          })
        }
      }
      ctx.observe('sanitisedBody', got.body.body)
    },
  }),
]
