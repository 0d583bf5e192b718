// §2 types a case's `description` `string`, not `string|null`, and §4.4 lets a create and an update send it; ""
// is a string. A write that sends "" is refused (400: a server may hold free text to be non-blank) or keeps "": a
// server that turns blank text into null (a common serialiser or ORM setting) breaks the record's type (§2
// "may be null where the type says so"). §4.1 grants "" as null only to email fields.
import { defineCheck, holdsWritten, itemPath, trackCreated, updateRecord, runLabel, RESOURCES } from '../../src/checks/index.ts'
import type { ApiResponse, CheckContext, CheckDefinition } from '../../src/checks/index.ts'
import { minimalCreate } from '../shared/bodies.ts'

const area = 'records'

/** Fails unless the record `res` carries holds description "". An answer with no record is the records area's to judge. */
function expectEmptyKept(ctx: CheckContext, res: ApiResponse, what: string): void {
  if (typeof res.body !== 'object' || res.body === null || Array.isArray(res.body)) return
  const held: unknown = res.body.description
  // The records area's one rule for "holds what was written": "" reads as null only for an email field (§4.1).
  if (holdsWritten('case', 'description', { description: '' }, held)) return
  ctx.fail(`${what} holds description ${held === undefined ? '(absent)' : JSON.stringify(held)} after description "" was written (§2: a string, never null)`, {
    expected: 'description "" (a refusal, 400, is allowed instead)',
    exchanges: [res.exchange],
  })
}

export const emptyTextChecks: CheckDefinition[] = [
  defineCheck({
    id: 'records.case.empty-description',
    clauses: ['§2', '§4.4'],
    level: 'MUST',
    area,
    title: 'A case created and updated with description "" (typed string, not null) is refused (400) or comes back with "", never null',
    writes: 'safe',
    async run(ctx) {
      const body = { ...minimalCreate(ctx, 'case', runLabel(ctx, 'empty description')), description: '' }
      const created = await ctx.api.post(RESOURCES.case.path, body)
      if (created.status === 400) return ctx.note('the server refuses description "" (400): allowed, free text may be held to be non-blank')
      if (!created.ok)
        ctx.fail(`POST ${RESOURCES.case.path} with description "" answered ${created.status}, expected 2xx or 400`, { exchanges: [created.exchange] })
      const id = String(created.body?.id)
      trackCreated(ctx, 'case', id)
      expectEmptyKept(ctx, created, 'the created case')
      const updated = await updateRecord(ctx, 'case', id, { description: '' })
      if (updated.status === 400) ctx.note('the server refuses description "" on update (400): allowed')
      else if (updated.ok) expectEmptyKept(ctx, updated, 'the updated case')
      const read = await ctx.api.get(itemPath('case', id))
      if (read.status === 200) expectEmptyKept(ctx, read, `GET ${itemPath('case', id)}`)
    },
  }),
]
