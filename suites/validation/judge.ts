// Sending invalid bodies and judging the answers: each probe must get the §7.3 400 `invalid_request` whose
// details name the field (§7.2, any path notation). A check sends its probes one after another, collects every
// defect, and fails once naming them all. A create the server wrongly accepts is tracked for clean-up first.
import { trackCreated, refusalProblem as judgeRefusal } from '../../src/checks/index.ts'
import type { CheckContext, ApiResponse, AnyRecord, ResourceName } from '../../src/checks/index.ts'

export interface Probe {
  /** What is wrong, as the failure names it: `tags given "crmconf"`, `name missing`. */
  label: string
  /** The field the details must name; undefined for a defect of the body as a whole. */
  field?: string
  /** Several defects sent in one body: each is judged on the one answer (its details must name each field). */
  parts?: { label: string; field: string }[]
  send(): Promise<ApiResponse>
}

/** The fields a probe's details must name. */
export const probedFields = (probe: Probe): (string | undefined)[] => probe.parts?.map((p) => p.field) ?? [probe.field]

/**
 * Defects folded into as few bodies as one field's defects need: each body holds at most one defect per field, so
 * one request judges each of them (§7.2 "details … lists each field to fix", as the several-defects checks hold
 * every server to). A body with N defects spends 1 request where N bodies spent N.
 */
export function foldDefects<T extends { field: string }>(defects: readonly T[]): T[][] {
  const bodies: T[][] = []
  for (const d of defects) {
    const free = bodies.find((b) => !b.some((o) => o.field === d.field))
    if (free) free.push(d)
    else bodies.push([d])
  }
  return bodies
}

/** One probe per folded body: `apply` each defect of it to the valid body, in turn. */
export function foldedProbes(
  defects: readonly { label: string; field: string; apply(body: AnyRecord): AnyRecord }[],
  valid: AnyRecord,
  send: (body: AnyRecord) => Promise<ApiResponse>,
): Probe[] {
  return foldDefects(defects).map((body) => ({
    label: body.map((d) => d.label).join(', '),
    parts: body.map(({ label, field }) => ({ label: body.length > 1 ? `${label} (in one body with ${body.length - 1} other defect(s))` : label, field })),
    send: () => send(body.reduce((b, d) => d.apply(b), valid)),
  }))
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
  let judged = 0
  for (const probe of probes) {
    const response = await probe.send()
    if (options.created) trackAccepted(ctx, options.created, response)
    for (const part of probe.parts ?? [probe]) {
      judged++
      const problem = judge(response, part.field)
      if (problem) defects.push({ label: part.label, problem, response })
    }
  }
  ctx.observe('probes', probes.length)
  if (judged !== probes.length) ctx.observe('defects', judged)
  if (defects.length === 0) return
  const shown = defects
    .slice(0, 3)
    .map((d) => `${d.label}: ${d.problem}`)
    .join('; ')
  ctx.fail(
    `${defects.length} of ${judged} defects${judged !== probes.length ? ` (sent in ${probes.length} bodies)` : ''} not refused as ${options.clause} asks: ${shown}${defects.length > 3 ? `; and ${defects.length - 3} more` : ''}`,
    {
      expected: '400 with code invalid_request and a details entry whose path names the field (§7.2, §7.3)',
      exchanges: [...new Set(defects.map((d) => d.response.exchange))].slice(0, 5),
      data: defects.map((d) => ({ defect: d.label, problem: d.problem, status: d.response.status })),
    },
  )
}
