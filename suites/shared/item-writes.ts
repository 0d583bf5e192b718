// The writes §4.2 lists on one record (`/<collection>/{id}`: update, replace, delete), read from src/spec/ and
// sent with the spec's leniency (the update method is not shown, §4.1): the auth area's guards and the records
// area's unknown-id checks both send each of them, with a body that would change the record.
import { deleteRecord, replaceRecord, runLabel, updateRecord, RESOURCES } from '../../src/checks/index.ts'
import type { AnyRecord, ApiClient, ApiResponse, CheckContext, ResourceName } from '../../src/checks/index.ts'
import { REPLACE_BODIES } from './bodies.ts'

export type ItemWrite = 'update' | 'replace' | 'delete'
export const ITEM_WRITES: readonly ItemWrite[] = ['update', 'replace', 'delete']

/** The record writes §4.2 lists for this resource, in table order. */
export function itemWritesOf(resource: ResourceName): ItemWrite[] {
  return ITEM_WRITES.filter((op) => RESOURCES[resource].ops[op])
}

/** The free-text field a write changes, per resource: required on create, so never refused as unknown. */
const TEXT_FIELD: Partial<Record<ResourceName, string>> = {
  account: 'name',
  contact: 'fullName',
  case: 'subject',
  lead: 'fullName',
  opportunity: 'name',
  quotation: 'title',
  invoice: 'title',
  product: 'name',
  task: 'title',
}

/** The field changeBody writes, for reading back whether the write took. */
export function changedField(resource: ResourceName): string | undefined {
  return TEXT_FIELD[resource]
}

/**
 * A valid body for an update (one text field) or a replace (every field, §4.4, built from `record`: the record
 * read back, or for an id that names nothing, the few values a replace body takes from it). Undefined for a delete.
 */
export function changeBody(ctx: CheckContext, resource: ResourceName, op: ItemWrite, record: AnyRecord, purpose: string): AnyRecord | undefined {
  if (op === 'delete') return undefined
  const field = TEXT_FIELD[resource]
  const label = runLabel(ctx, purpose)
  const replace = REPLACE_BODIES[resource]
  const base = op === 'replace' && replace ? replace(record) : {}
  return field ? { ...base, [field]: label } : base
}

/** Sends the write with `client`: update PATCH else PUT, replace PUT else PATCH (operations.ts), delete DELETE. */
export function sendItemWrite(
  ctx: CheckContext,
  resource: ResourceName,
  op: ItemWrite,
  id: string,
  body: AnyRecord | undefined,
  client: ApiClient,
): Promise<ApiResponse> {
  if (op === 'delete') return deleteRecord(ctx, resource, id, client)
  if (op === 'replace') return replaceRecord(ctx, resource, id, body ?? {}, client)
  return updateRecord(ctx, resource, id, body ?? {}, client)
}
