// Read-only: for every collection of §4.2, one page of the list (limit 5) and a GET of its first record, each
// judged against the §2 record schema; and, as information, the fields a server returns beyond §2.
import { defineCheck } from '../../src/checks/define.ts'
import type { CheckContext, CheckDefinition } from '../../src/checks/types.ts'
import type { ApiResponse } from '../../src/http/api-client.ts'
import { itemPath } from '../../src/engine/operations.ts'
import { extraProperties, listKey, recordKey, validate, type SchemaIssue } from '../../src/schemas/registry.ts'
import { RESOURCE_LIST, type ResourceSpec } from '../../src/spec/resources.ts'

const area = 'records'
const PAGE_SIZE = 5

interface Sample {
  list: ApiResponse
  /** GET of the first listed record; absent when the list is empty or unreadable. */
  get?: ApiResponse
}

/** One list page and one GET per resource, shared by the checks below. */
function sampleOf(ctx: CheckContext, spec: ResourceSpec): Promise<Sample> {
  return ctx.session.memo(`records:sample:${spec.name}`, async () => {
    const list = await ctx.api.get(spec.path, { limit: PAGE_SIZE })
    const first = list.status === 200 && Array.isArray(list.body?.data) ? list.body.data[0] : undefined
    if (typeof first?.id !== 'string') return { list }
    return { list, get: await ctx.api.get(itemPath(spec.name, first.id)) }
  })
}

function describe(issues: SchemaIssue[]): string {
  const first = issues.slice(0, 4).map((i) => `${i.path || '(root)'} ${i.message}`).join('; ')
  return `${first}${issues.length > 4 ? `; and ${issues.length - 4} more` : ''}`
}

function listPageCheck(spec: ResourceSpec): CheckDefinition {
  return defineCheck({
    id: `${area}.${spec.name}.list-page`,
    clauses: ['§4.1', '§2'],
    level: 'MUST',
    area,
    title: `GET ${spec.path}?limit=${PAGE_SIZE} answers 200 with { data, nextCursor } whose every record has the §2 ${spec.name} fields and types`,
    async run(ctx) {
      const { list } = await sampleOf(ctx, spec)
      if (list.status !== 200) ctx.fail(`GET ${spec.path}: status is ${list.status}, expected 200 (§4.1)`, { exchanges: [list.exchange], data: list.body })
      const issues = validate(listKey(spec.name), list.body)
      if (issues.length > 0) {
        ctx.fail(`GET ${spec.path} does not match lists/${spec.name} (§4.1, §2): ${describe(issues)}`, {
          expected: `{ data: ${spec.name}[], nextCursor } with every §2 field present, of its type`,
          exchanges: [list.exchange],
          data: issues,
        })
      }
      ctx.observe('records', list.body.data.length)
      if (list.body.data.length === 0) ctx.skip(`GET ${spec.path} returned no record to judge`)
    },
  })
}

function getOneCheck(spec: ResourceSpec): CheckDefinition {
  return defineCheck({
    id: `${area}.${spec.name}.get-one`,
    clauses: ['§4.1', '§4.2', '§2'],
    level: 'MUST',
    area,
    title: `GET ${spec.path}/{id} of a listed ${spec.name} answers 200 with that record, every §2 field present with its type`,
    async run(ctx) {
      const { list, get } = await sampleOf(ctx, spec)
      if (!get) return ctx.skip(list.status === 200 ? `GET ${spec.path} returned no record to read` : `GET ${spec.path} answered ${list.status}; ${area}.${spec.name}.list-page reports it`)
      if (get.status !== 200) ctx.fail(`GET ${spec.path}/{id} of a listed record: status is ${get.status}, expected 200 (§4.2)`, { exchanges: [list.exchange, get.exchange], data: get.body })
      const issues = validate(recordKey(spec.name), get.body)
      if (issues.length > 0) {
        ctx.fail(`GET ${spec.path}/{id} does not match records/${spec.name} (§2): ${describe(issues)}`, {
          expected: `the ${spec.name} record as §2 lists it`,
          exchanges: [get.exchange],
          data: issues,
        })
      }
      const wanted = String(list.body.data[0].id).toLowerCase()
      if (String(get.body.id).toLowerCase() !== wanted) {
        ctx.fail(`GET ${spec.path}/${wanted} answered the record ${JSON.stringify(get.body.id)} (§4.2)`, { exchanges: [get.exchange] })
      }
    },
  })
}

export const extraFieldsCheck = defineCheck({
  id: `${area}.extra-fields`,
  clauses: ['§2'],
  level: 'INFO',
  area,
  title: 'Fields the server returns in records beyond those §2 lists (allowed; reported for implementers and clients)',
  async run(ctx) {
    const extras: Record<string, string[]> = {}
    let judged = 0
    for (const spec of RESOURCE_LIST) {
      const { list, get } = await sampleOf(ctx, spec)
      const records = [...(list.status === 200 && Array.isArray(list.body?.data) ? list.body.data : []), ...(get?.status === 200 ? [get.body] : [])]
      judged += records.length
      const fields = new Set(records.flatMap((r: unknown) => extraProperties(recordKey(spec.name), r)))
      if (fields.size > 0) extras[spec.name] = [...fields].sort()
    }
    if (judged === 0) ctx.skip('no record could be read')
    ctx.observe('recordsJudged', judged)
    ctx.observe('extraFields', extras)
    if (Object.keys(extras).length > 0) ctx.note(`extra fields: ${Object.entries(extras).map(([r, f]) => `${r}: ${f.join(', ')}`).join('; ')}`)
  },
})

export const readChecks: CheckDefinition[] = RESOURCE_LIST.flatMap((spec) => [listPageCheck(spec), getOneCheck(spec)])
