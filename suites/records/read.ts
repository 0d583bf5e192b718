// Read-only: for every collection of §4.2, one page of the list (limit 5) and a GET of its first record, each
// judged against the §2 record schema; and, as information, the fields a server returns beyond §2.
import { defineCheck, itemPath, recordsNotInUse, extraProperties, listKey, recordKey, validate, RESOURCE_LIST } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, ApiResponse, AnyRecord, SchemaIssue, ResourceSpec } from '../../src/checks/index.ts'

const area = 'records'
const PAGE_SIZE = 5

interface Sample {
  list: ApiResponse
  /** GET of a listed record no check of the run owns; absent when the list shows none. */
  get?: ApiResponse
  /** The list that record was taken from. */
  from?: ApiResponse
  /** Its id as listed. */
  id?: string
}

const dataOf = (list: ApiResponse): AnyRecord[] => (list.status === 200 && Array.isArray(list.body?.data) ? list.body.data : [])

/**
 * One list page and one GET per resource, shared by the checks below. The record read is one no check of the run
 * owns (operations.ts recordsNotInUse): the newest listed may be one another check is deleting at that moment.
 * When the newest page holds none, the oldest page is looked at: records that were there before the run.
 */
function sampleOf(ctx: CheckContext, spec: ResourceSpec): Promise<Sample> {
  return ctx.session.memo(`records:sample:${spec.name}`, async () => {
    const list = await ctx.api.get(spec.path, { limit: PAGE_SIZE })
    if (dataOf(list).length === 0) return { list }
    let from = list
    let [chosen] = await recordsNotInUse(ctx, dataOf(list))
    if (!chosen) {
      from = await ctx.api.get(spec.path, { limit: PAGE_SIZE, sort: 'createdAt', order: 'asc' })
      ;[chosen] = await recordsNotInUse(ctx, dataOf(from))
    }
    if (!chosen) return { list, from }
    return { list, from, id: String(chosen.id), get: await ctx.api.get(itemPath(spec.name, chosen.id)) }
  })
}

function describe(issues: SchemaIssue[]): string {
  const first = issues
    .slice(0, 4)
    .map((i) => `${i.path || '(root)'} ${i.message}`)
    .join('; ')
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
      const { list, get, from, id } = await sampleOf(ctx, spec)
      if (!get) {
        if (list.status !== 200) return ctx.skip(`GET ${spec.path} answered ${list.status}; ${area}.${spec.name}.list-page reports it`)
        return ctx.skip(
          from
            ? `every ${spec.name} listed (newest and oldest pages) is one this run created, which other checks change or delete`
            : `GET ${spec.path} returned no record to read`,
        )
      }
      if (get.status !== 200)
        ctx.fail(`GET ${spec.path}/{id} of a listed record: status is ${get.status}, expected 200 (§4.2)`, {
          exchanges: [from!.exchange, get.exchange],
          data: get.body,
        })
      const issues = validate(recordKey(spec.name), get.body)
      if (issues.length > 0) {
        ctx.fail(`GET ${spec.path}/{id} does not match records/${spec.name} (§2): ${describe(issues)}`, {
          expected: `the ${spec.name} record as §2 lists it`,
          exchanges: [get.exchange],
          data: issues,
        })
      }
      const wanted = String(id).toLowerCase()
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
    if (Object.keys(extras).length > 0)
      ctx.note(
        `extra fields: ${Object.entries(extras)
          .map(([r, f]) => `${r}: ${f.join(', ')}`)
          .join('; ')}`,
      )
  },
})

export const readChecks: CheckDefinition[] = RESOURCE_LIST.flatMap((spec) => [listPageCheck(spec), getOneCheck(spec)])
