// A list page read by the pagination checks, and the small facts they read off it (§4.1).
import { expectListEnvelope } from '../../src/checks/index.ts'
import type { CheckContext, ApiResponse, AnyRecord } from '../../src/checks/index.ts'

/** A list that must answer 200 with the list envelope (§2, §4.1), whichever page it is; anything else fails the check with its evidence. */
export async function listPage(
  ctx: CheckContext,
  path: string,
  query: Record<string, string | number>,
): Promise<ApiResponse & { body: { data: AnyRecord[]; nextCursor?: unknown } }> {
  const res = await ctx.api.get(path, query)
  if (res.status !== 200 || !Array.isArray(res.body?.data)) {
    ctx.fail(`GET ${path}: status is ${res.status}${res.status === 200 ? ' without a data array' : ''}, expected 200 with { data, nextCursor } (§4.1)`, {
      exchanges: [res.exchange],
      data: res.body,
    })
  }
  expectListEnvelope(res, `GET ${path}`)
  return res
}

export const ids = (records: AnyRecord[]) => records.map((r) => String(r.id))
export const moreAfter = (res: ApiResponse) => typeof res.body?.nextCursor === 'string' && res.body.nextCursor !== ''

/** How many pages of a walk hold records. */
export const pagesWithRecords = (walk: { pages: ApiResponse[] }): number =>
  walk.pages.filter((p) => Array.isArray(p.body?.data) && p.body.data.length > 0).length

/**
 * Called by a check that judges a walk across its pages, once its judgements are made: a walk whose records all
 * came on one page saw no later page, so nothing that could have failed it there; the check skips, saying so.
 */
export function expectLaterPage(ctx: Pick<CheckContext, 'skip'>, walk: { pages: ApiResponse[] }, what: string): void {
  if (pagesWithRecords(walk) < 2) ctx.skip(`${what}: every record came on the first page (${walk.pages.length} page(s) read), so no later page was judged`)
}
