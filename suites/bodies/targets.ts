// Which bodies the bodies area exercises, and how each resource's generated bodies stay recognisable and safe.
import { runLabel, RESOURCE_LIST, RUN_LABEL_FIELDS } from '../../src/checks/index.ts'
import type { CheckContext, BodyOptions, ResourceName, WriteOp } from '../../src/checks/index.ts'

/** The safe profile's resources: created here and deleted at the end (§4.2 lists a delete for each). */
export const CREATABLE: ResourceName[] = RESOURCE_LIST.filter((r) => r.create && r.ops.delete).map((r) => r.name)

/** Their update or replace body (§4.4): quotations are replaced while still a draft (§3 rule 1). */
export const CHANGEABLE: { resource: ResourceName; op: 'update' | 'replace' }[] = RESOURCE_LIST.filter((r) => r.ops.delete && (r.update || r.replace)).map(
  (r) => ({
    resource: r.name,
    op: r.update ? 'update' : 'replace',
  }),
)

/**
 * §3: "Transitions between any of these states: not shown", so a writable state (lead status on update) may be
 * refused from the record's current state by a conformant server; it is left out of generated bodies.
 */
const STATE_FIELDS = ['status']

/** What the bodies are drawn for: the base record, a round-trip property, an invalid-body property. */
export type Purpose = 'base' | 'roundtrip' | 'invalid'

/**
 * A new mark for each generated address: the run's (a later run meets no address of this one), the purpose's
 * and op's, and a count. Counted per call, so that a replay of one check with its seed draws the same marks.
 */
function emailMarks(ctx: CheckContext, op: WriteOp, purpose: Purpose): () => string {
  const run = ctx.runId
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(-6)
    .toLowerCase()
  let count = 0
  return () => `${run}.${purpose[0]}${op[0]}${(count++).toString(36)}`
}

export function bodyOptions(ctx: CheckContext, resource: ResourceName, op: WriteOp, purpose: Purpose): BodyOptions {
  // Resources without tags carry the run label where `sweep` looks for it.
  const label = RUN_LABEL_FIELDS[resource]
  return {
    prefix: label ? { [label]: `${runLabel(ctx, resource)} ` } : undefined,
    omit: op === 'create' ? [] : STATE_FIELDS,
    emailMark: emailMarks(ctx, op, purpose),
  }
}
