// Records several side-effect checks hang things on, created once per run (deleted at clean-up), and the two
// views of a created record in which a side effect must show.
import { createRecord, itemPath, runLabel, safeEmail, trackCreated } from '../../src/checks/index.ts'
import type { CheckContext, AnyRecord, ApiResponse, ResourceName } from '../../src/checks/index.ts'

export function sharedAccount(ctx: CheckContext): Promise<AnyRecord> {
  return ctx.session.memo(
    'side-effects.account',
    async () => (await createRecord(ctx, 'account', { name: runLabel(ctx, 'account') }, { validate: false })).record,
  )
}

/** A fresh @example.com address for one record of this run (§ safe profile: reserved test data). */
export function uniqueEmail(ctx: CheckContext, what: string): string {
  return safeEmail(`${what} ${ctx.runId} ${Math.random().toString(36).slice(2, 8)}`)
}

/** Where a created record was seen: in the create's answer (§4.2: a create returns the record) or in a GET after it. */
export type View = readonly [where: 'create response' | 'GET', response: ApiResponse]

/** The record a create answered and the same record read back: a side effect of the write must show in both. */
export async function createdAndRead(ctx: CheckContext, resource: ResourceName, created: ApiResponse): Promise<{ got: ApiResponse; views: View[] }> {
  const got = await ctx.api.get(itemPath(resource, created.body.id))
  return {
    got,
    views: [
      ['create response', created],
      ['GET', got],
    ],
  }
}

/**
 * A create the check posts itself, to see what the server does with its input: it must answer 2xx (§4.2, §4.4),
 * and its record is removed at clean-up.
 */
export function expectPostedCreate(ctx: CheckContext, resource: ResourceName, created: ApiResponse): void {
  if (!created.ok) ctx.fail(`create ${resource}: status is ${created.status}, expected a 2xx (§4.2, §4.4)`, { exchanges: [created.exchange] })
  if (typeof created.body?.id === 'string') trackCreated(ctx, resource, created.body.id)
}
