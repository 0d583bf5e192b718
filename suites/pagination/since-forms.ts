// §4.1 createdSince/updatedSince are date-times (§2: ISO 8601): the same instant written at another zone offset and
// with more fractional digits than shown names the same bound, so it lists the same records. A server that drops the
// offset (reads the wall time as UTC) moves the bound by hours and lists too many or too few.
import { defineCheck, LIMITS, RESOURCES, sameInstantAt } from '../../src/checks/index.ts'
import type { AnyRecord, CheckDefinition, SortKey } from '../../src/checks/index.ts'
import { childSet } from './fixtures.ts'
import { listPage } from './pages.ts'

const area = 'pagination'
const ACCOUNTS = RESOURCES.account.path

/** Two forms of one instant: east of UTC with microseconds, west of UTC by a half hour with the digits shown. */
const FORMS = [
  { offsetMinutes: 8 * 60, digits: (shown: number) => Math.max(shown, 6) },
  { offsetMinutes: -(5 * 60 + 30), digits: (shown: number) => Math.max(shown, 3) },
]

const fractionDigits = (value: string) => /\.(\d+)/.exec(value)?.[1]?.length ?? 0

function offsetForms(param: 'createdSince' | 'updatedSince', field: SortKey): CheckDefinition {
  return defineCheck({
    id: `pagination.${param}.offset-forms`,
    clauses: param === 'updatedSince' ? ['§4.1', '§9.2'] : ['§4.1'],
    level: 'MUST',
    area,
    writes: 'safe',
    title: `${param} written at a zone offset other than Z (+08:00, -05:30) and with more fractional digits is the same instant: it lists the records ${field === 'createdAt' ? 'created' : 'changed'} after it and none before`,
    async run(ctx) {
      const set = await childSet(ctx)
      const known = [...set.records].sort((a, b) => Date.parse(a[field]) - Date.parse(b[field]))
      const shown = String(known[Math.floor(known.length / 2)]![field])
      const at = Date.parse(shown)
      for (const form of FORMS) {
        const since = sameInstantAt(shown, form.offsetMinutes, form.digits(fractionDigits(shown)))
        if (since === undefined) return ctx.skip(`the ${field} shown, ${shown}, is no RFC 3339 date-time this check can rewrite`)
        const res = await listPage(ctx, ACCOUNTS, { ...set.query, [param]: since, sort: field, order: 'asc', limit: LIMITS.pageSizeMax })
        const listed = new Set(res.body.data.map((r: AnyRecord) => String(r?.id).toLowerCase()))
        const what = `${param}=${since} (the instant ${shown})`
        // Shown before the bound, as returned (another check may have changed a record since, only later).
        const early = res.body.data.find((r: AnyRecord) => Date.parse(r?.[field]) < at)
        if (early) {
          ctx.fail(`${what} returned ${early.id}, whose ${field} ${early[field]} is before it (§4.1)`, {
            expected: `the bound read with its offset: only records ${field === 'createdAt' ? 'created' : 'changed'} after ${shown}`,
            exchanges: [res.exchange],
          })
        }
        // Known to be after the bound (a change only moves updatedAt later); a record at the bound itself is not judged.
        const missed = known.filter((r) => Date.parse(r[field]) > at && !listed.has(String(r.id).toLowerCase()))
        if (missed.length > 0) {
          ctx.fail(
            `${what} left out ${missed.length} of the ${known.filter((r) => Date.parse(r[field]) > at).length} children ${field === 'createdAt' ? 'created' : 'changed'} after it, e.g. ${missed[0]!.id} (${missed[0]![field]}) (§4.1)`,
            {
              expected: `the bound read with its offset: every record ${field === 'createdAt' ? 'created' : 'changed'} after ${shown}`,
              exchanges: [res.exchange],
            },
          )
        }
      }
    },
  })
}

export const sinceFormChecks: CheckDefinition[] = [offsetForms('createdSince', 'createdAt'), offsetForms('updatedSince', 'updatedAt')]
