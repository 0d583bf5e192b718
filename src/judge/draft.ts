// §3 "Quotations and invoices are created as a draft" (§4.2 "create (draft)"), whatever the create body says:
// judged on the created record by the state area and by the traffic rule traffic.state.created-draft.

/** The resources the spec creates as drafts. */
export type DraftResource = 'quotation' | 'invoice'

/** Why a quotation or invoice just created, showing `status`, is not a draft; undefined when it is one. */
export function notCreatedAsDraft(resource: DraftResource, status: unknown): { message: string; expected: string } | undefined {
  if (status === 'draft') return undefined
  return {
    message: `created ${resource} has status ${JSON.stringify(status)}, expected "draft" (§3)`,
    expected: `status "draft": ${resource}s are "created as a draft" (§3, §4.2 "create (draft)")`,
  }
}
