// What a validation probe is sent to: one §4.4 body (resource and operation), the valid body it starts from and
// how it is sent (a create, or an update or replace of the run's validation record).
import { replaceRecord, runLabel, tagged, updateRecord, RESOURCES } from '../../src/checks/index.ts'
import type { CheckContext, WriteNeed, ApiResponse, AnyRecord, BodySpec, ResourceName, WriteOp } from '../../src/checks/index.ts'
import { REPLACE_BODIES } from '../shared/bodies.ts'
import { createBase, target } from './bases.ts'

export interface Subject {
  resource: ResourceName
  op: WriteOp
  body: BodySpec
}

/** Records the API cannot delete (and comments and messages, which go out) need the full profile (rule 4). */
export const writesOf = (resource: ResourceName): WriteNeed => (RESOURCES[resource].ops.delete ? 'safe' : 'full')

export function operation(s: Subject): string {
  const path = RESOURCES[s.resource].path
  return s.op === 'create' ? `POST ${path}` : s.op === 'replace' ? `PUT ${path}/{id}` : `update ${path}/{id}`
}

export interface Sender {
  valid: AnyRecord
  send(body: AnyRecord): Promise<ApiResponse>
  /** The record an update or replace is sent to, as created; none for a create. */
  record?: AnyRecord
  /** A create's run label, unique to this check: a record made from one of its bodies holds it. */
  label?: string
}

/** The valid body a probe starts from, and how it is sent (create, update or replace of a run record). */
export async function sender(ctx: CheckContext, s: Subject): Promise<Sender> {
  if (s.op === 'create') {
    const path = RESOURCES[s.resource].path
    const label = runLabel(ctx, `validation ${s.resource}`)
    return { valid: tagged(ctx, s.resource, await createBase(ctx, s.resource, label)), send: (body) => ctx.api.post(path, body), label }
  }
  const record = await target(ctx, s.resource)
  if (s.op === 'update') return { valid: {}, send: (body) => updateRecord(ctx, s.resource, record.id, body), record }
  return { valid: REPLACE_BODIES[s.resource]!(record), send: (body) => replaceRecord(ctx, s.resource, record.id, body), record }
}
