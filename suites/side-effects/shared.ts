// Records several side-effect checks hang things on, created once per run (deleted at clean-up).
import { createRecord, runLabel, safeEmail } from '../../src/checks/index.ts'
import type { CheckContext, AnyRecord } from '../../src/checks/index.ts'

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
