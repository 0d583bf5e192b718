// The restricted key's scopes (§5.3, §5.4), known once per run: the auth area's scope checks and the
// idempotency area's per-key checks both need them.
import { scopesFromMe, ME_PATH } from '../../src/checks/index.ts'
import type { CheckContext } from '../../src/checks/index.ts'

export interface KnownScopes {
  scopes: string[]
  source: string
}

/** The restricted key's scopes: what its GET /me shows, else CRM_API_KEY_RESTRICTED_SCOPES; skips when neither. */
export async function restrictedScopes(ctx: CheckContext): Promise<KnownScopes> {
  const restricted = ctx.as('restricted')
  const known = await ctx.session.memo('auth.restricted-scopes', async (): Promise<KnownScopes | undefined> => {
    // What the tester states wins: the /me shape is not shown (§5.9), and scope-like strings there may be the
    // user's role permissions rather than the key's scopes.
    const stated = ctx.config.restrictedScopes
    const shown = stated ? undefined : await restricted.get(ME_PATH).then((me) => (me.ok ? scopesFromMe(me.body) : undefined))
    const found = stated
      ? { scopes: stated, source: 'CRM_API_KEY_RESTRICTED_SCOPES' }
      : shown && { scopes: shown, source: 'GET /me with CRM_API_KEY_RESTRICTED' }
    // Once for the run, not once per scope check.
    if (found) ctx.session.capabilities['auth.restrictedScopes'] = found
    return found || undefined
  })
  if (!known) ctx.skip("the restricted key's scopes are unknown: its GET /me shows none and CRM_API_KEY_RESTRICTED_SCOPES is not set")
  return known
}
