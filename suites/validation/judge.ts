// Sending invalid bodies and judging the answers: each probe must get the §7.3 400 `invalid_request` whose
// details name the field (§7.2, any path notation). A check sends its probes one after another, collects every
// defect, and fails once naming them all. A create the server wrongly accepts is tracked for clean-up first.
import { trackCreated, refusalProblem as judgeRefusal } from '../../src/checks/index.ts'
import type { CheckContext, ApiResponse, ResourceName } from '../../src/checks/index.ts'

export interface Probe {
  /** What is wrong, as the failure names it: `tags given "crmconf"`, `name missing`. */
  label: string
  /** The field the details must name; undefined for a defect of the body as a whole. */
  field?: string
  send(): Promise<ApiResponse>
}

export interface Defect {
  label: string
  problem: string
  response: ApiResponse
}

/** Why the answer is not the §7.3 refusal naming `field`, or undefined when it is. */
export function refusalProblem(res: ApiResponse, field: string | undefined): string | undefined {
  return judgeRefusal(res.status, res.body, field)
}

/** A 2xx with an id to a create: the server made a record from an invalid body; remember it for clean-up. */
export function trackAccepted(ctx: CheckContext, resource: ResourceName, res: ApiResponse): void {
  if (res.ok && typeof res.body?.id === 'string') trackCreated(ctx, resource, res.body.id)
}

/**
 * Sends every probe and fails naming each one the server did not refuse as §7.3 asks. `created` names the
 * resource when the probes are creates (accepted ones are tracked for clean-up).
 */
export async function expectRefusals(
  ctx: CheckContext,
  probes: Probe[],
  options: { clause: string; created?: ResourceName; judge?: typeof refusalProblem },
): Promise<void> {
  const judge = options.judge ?? refusalProblem
  const defects: Defect[] = []
  for (const probe of probes) {
    const response = await probe.send()
    if (options.created) trackAccepted(ctx, options.created, response)
    const problem = judge(response, probe.field)
    if (problem) defects.push({ label: probe.label, problem, response })
  }
  ctx.observe('probes', probes.length)
  if (defects.length === 0) return
  const shown = defects
    .slice(0, 3)
    .map((d) => `${d.label}: ${d.problem}`)
    .join('; ')
  ctx.fail(
    `${defects.length} of ${probes.length} invalid bodies not refused as ${options.clause} asks: ${shown}${defects.length > 3 ? `; and ${defects.length - 3} more` : ''}`,
    {
      expected: '400 with code invalid_request and a details entry whose path names the field (§7.2, §7.3)',
      exchanges: defects.slice(0, 5).map((d) => d.response.exchange),
      data: defects.map((d) => ({ defect: d.label, problem: d.problem, status: d.response.status })),
    },
  )
}
