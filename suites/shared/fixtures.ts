// Seeded records the API cannot bring into being (§3: transitions are not shown): the configured fixture, or
// else the first fitting record of one listed page. Skips, naming the variable, when there is none.
import { FIXTURE_VARIABLES, recordsNotInUse, RESOURCES } from '../../src/checks/index.ts'
import type { CheckContext, FixtureName, AnyRecord, ApiResponse, Query, ResourceName } from '../../src/checks/index.ts'

export interface Found {
  id: string
  source: 'fixture' | 'listed'
  /** The variable that names such a record, for skip messages. */
  variable: string
}

/** One page of a collection, fetched once per run for every check looking for a seeded record in it. */
export function listedOnce(ctx: CheckContext, resource: ResourceName, query: Query = {}): Promise<ApiResponse> {
  const path = RESOURCES[resource].path
  const q: Query = { limit: 100, ...query }
  return ctx.session.memo(`state.listed ${path} ${JSON.stringify(q)}`, () => ctx.api.get(path, q))
}

/** Records of a listed page (none when the list failed: the lists themselves are judged elsewhere). */
export function recordsOf(page: ApiResponse): AnyRecord[] {
  return page.status === 200 && Array.isArray(page.body?.data) ? (page.body.data as AnyRecord[]) : []
}

export async function findSeeded(
  ctx: CheckContext,
  fixture: FixtureName,
  resource: ResourceName,
  what: string,
  fits: (record: AnyRecord) => boolean,
  query: Query = {},
): Promise<Found> {
  const variable = FIXTURE_VARIABLES[fixture]
  const configured = ctx.config.fixtures[fixture]
  if (configured) return { id: configured, source: 'fixture', variable }
  const found = (await recordsNotInUse(ctx, recordsOf(await listedOnce(ctx, resource, query)))).find(fits)
  if (!found || typeof found.id !== 'string') ctx.skip(`no ${what} found by listing ${RESOURCES[resource].path}; set ${variable}`)
  ctx.note(`${what}: ${found.id}, found by listing (${variable} is not set)`)
  return { id: found.id, source: 'listed', variable }
}

export const isNonDraft = (r: AnyRecord): boolean => typeof r.status === 'string' && r.status !== 'draft'

/**
 * The sent invoice the payment checks pay against (the fixture, or a listed one) with at least `balanceSen` left:
 * the state and idempotency areas pay 1 sen each and need 2, so the webhook area still has something to pay in full.
 */
export function sentInvoiceWithBalance(ctx: CheckContext, balanceSen: number): ReturnType<typeof findSeeded> {
  return findSeeded(
    ctx,
    'sentInvoiceId',
    'invoice',
    'sent invoice with an outstanding balance',
    (r) => isNonDraft(r) && r.voidedAt == null && r.totalSen - r.paidSen >= balanceSen,
  )
}
