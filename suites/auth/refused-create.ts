// A create the key must not be allowed (a bad credential, a caller outside the IP allowlist), judged on its answer.
import { trackCreated } from '../../src/checks/index.ts'
import type { ApiResponse, CheckContext, ResourceName } from '../../src/checks/index.ts'

/**
 * Fails when the create was accepted: the record it made is tracked first, so that clean-up removes it. `status`
 * and `clause` are the refusal the spec names for the key, `why` the expectation quoted in the failure.
 */
export function expectCreateNotAccepted(
  ctx: CheckContext,
  resource: ResourceName,
  res: ApiResponse,
  refusal: { status: number; clause: string; why: string },
): void {
  if (res.ok && typeof res.body?.id === 'string') {
    trackCreated(ctx, resource, res.body.id)
    ctx.fail(`the create was accepted (status ${res.status}) and made ${resource} ${res.body.id}; expected ${refusal.status} (${refusal.clause})`, {
      expected: refusal.why,
      exchanges: [res.exchange],
    })
  }
}
