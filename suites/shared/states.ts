// Records in every state the workspace shows, not only the first one seen (§3). The API brings no quotation or
// invoice past draft (transitions are not shown), so the non-draft states are those the fixtures name and those
// one listed page holds: one record of each state, the fixtures first.
import { FIXTURE_VARIABLES, recordsNotInUse } from '../../src/checks/index.ts'
import type { CheckContext, FixtureName, AnyRecord, ResourceName } from '../../src/checks/index.ts'
import { isNonDraft, listedOnce, recordsOf, type Found } from './fixtures.ts'

/** States probed per rule: each costs a GET, the write and a GET. */
export const MAX_STATES = 4

/**
 * The configured fixtures (in their order) and, of the listed records not in use that `fits`, the first of each
 * state no record found so far is in. A fixture whose state the listed page does not show counts as a state of
 * its own. Never more than MAX_STATES.
 */
export async function oneOfEachState(
  ctx: CheckContext,
  resource: ResourceName,
  fixtures: FixtureName[],
  fits: (record: AnyRecord) => boolean = isNonDraft,
): Promise<Found[]> {
  const page = recordsOf(await listedOnce(ctx, resource))
  const found: Found[] = []
  const states = new Set<unknown>()
  for (const fixture of fixtures) {
    const id = ctx.config.fixtures[fixture]
    if (!id || found.some((f) => f.id === id)) continue
    found.push({ id, source: 'fixture', variable: FIXTURE_VARIABLES[fixture] })
    const listed = page.find((r) => r.id === id)
    if (listed) states.add(listed.status)
  }
  const variable = fixtures.map((f) => FIXTURE_VARIABLES[f]).join(' or ')
  for (const record of await recordsNotInUse(ctx, page)) {
    if (found.length >= MAX_STATES) break
    if (!fits(record) || states.has(record.status) || found.some((f) => f.id === record.id)) continue
    states.add(record.status)
    found.push({ id: String(record.id), source: 'listed', variable })
  }
  return found
}

/**
 * §3.2 names only "accepted": a quotation is surely not accepted when it is undecided (no decidedAt) or its
 * state says it was turned down. Any other decided state may be the server's word for accepted.
 */
const TURNED_DOWN = /^(declined|rejected|refused|lost|expired|cancell?ed|void(ed)?|withdrawn|superseded)$/i

export function surelyNotAccepted(q: AnyRecord): boolean {
  return isNonDraft(q) && q.status !== 'accepted' && (q.decidedAt == null || TURNED_DOWN.test(String(q.status)))
}
