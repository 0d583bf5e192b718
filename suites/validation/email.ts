// §4.1 "Email-type fields accept a string, null or an empty string": what must be accepted, not refused. Each
// resource with an email field is created with "" (read back as "" or null), then updated to an address and
// to null; a second one is created with null, then updated to "". A server that validates the address format
// without allowing "" refuses the first; one whose create schema forgets the null refuses the second. The
// create with an address is the records area's round trip (records.<resource>.roundtrip sends one).
import { defineCheck, safeEmail, tagged, updateRecord, RESOURCE_LIST, parseFieldType } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, ApiResponse, BodySpec, ResourceSpec } from '../../src/checks/index.ts'
import { hasCreateBody } from '../shared/bodies.ts'
import { createBody } from './bases.ts'
import { trackAccepted } from './judge.ts'

const area = 'validation'

const emailFields = (body: BodySpec | undefined): string[] =>
  Object.entries(body?.fields ?? {})
    .filter(([, t]) => parseFieldType(t).base === 'email')
    .map(([f]) => f)

function expectAccepted(ctx: CheckContext, res: ApiResponse, what: string): void {
  if (!res.ok) {
    ctx.fail(`${what}: status is ${res.status}, expected a 2xx (§4.1: email fields accept a string, null or an empty string)`, {
      exchanges: [res.exchange],
      data: res.body,
    })
  }
}

function expectRead(ctx: CheckContext, res: ApiResponse, field: string, ok: (v: unknown) => boolean, what: string, wanted: string): void {
  const value = res.body?.[field]
  if (!ok(value)) ctx.fail(`${what}: the record's ${field} is ${JSON.stringify(value)}, expected ${wanted} (§4.1)`, { exchanges: [res.exchange] })
}

function emailCheck(spec: ResourceSpec): CheckDefinition {
  const fields = emailFields(spec.create)
  const updatable = emailFields(spec.update)
  return defineCheck({
    id: `${area}.${spec.name}.email-values`,
    clauses: ['§4.1', '§4.4'],
    level: 'MUST',
    area,
    title: `${spec.path} accepts ${fields.join(', ')} as "" and as null on create, and as an address, null and "" on update ("" may read back as null)`,
    writes: 'safe',
    async run(ctx) {
      const empty = Object.fromEntries(fields.map((f) => [f, '']))
      const created = await ctx.api.post(spec.path, tagged(ctx, spec.name, { ...createBody(ctx, spec.name), ...empty }))
      trackAccepted(ctx, spec.name, created)
      expectAccepted(ctx, created, `POST ${spec.path} with ${fields.join(', ')} ""`)
      for (const f of fields) expectRead(ctx, created, f, (v) => v === '' || v === null, 'create response', '"" or null')
      const id = created.body?.id as string
      for (const f of updatable) {
        const address = safeEmail(`validation ${spec.name} ${ctx.runId}`)
        const set = await updateRecord(ctx, spec.name, id, { [f]: address })
        expectAccepted(ctx, set, `update ${spec.path}/{id} with ${f} "${address}"`)
        expectRead(ctx, set, f, (v) => typeof v === 'string' && v.toLowerCase() === address, 'update response', JSON.stringify(address))
        const cleared = await updateRecord(ctx, spec.name, id, { [f]: null })
        expectAccepted(ctx, cleared, `update ${spec.path}/{id} with ${f} null`)
        expectRead(ctx, cleared, f, (v) => v === null, 'update response', 'null')
      }
      const nulls = Object.fromEntries(fields.map((f) => [f, null]))
      const createdNull = await ctx.api.post(spec.path, tagged(ctx, spec.name, { ...createBody(ctx, spec.name), ...nulls }))
      trackAccepted(ctx, spec.name, createdNull)
      expectAccepted(ctx, createdNull, `POST ${spec.path} with ${fields.join(', ')} null`)
      for (const f of fields) expectRead(ctx, createdNull, f, (v) => v === null, 'create response', 'null')
      for (const f of updatable) {
        const blank = await updateRecord(ctx, spec.name, createdNull.body?.id as string, { [f]: '' })
        expectAccepted(ctx, blank, `update ${spec.path}/{id} with ${f} ""`)
        expectRead(ctx, blank, f, (v) => v === '' || v === null, 'update response', '"" or null')
      }
    },
  })
}

export const emailChecks: CheckDefinition[] = RESOURCE_LIST.filter((r) => emailFields(r.create).length > 0 && hasCreateBody(r.name) && r.ops.delete).map(
  emailCheck,
)
