// The valid bodies each probe starts from (one defect is then added), and the records that update and replace
// probes are sent to. A create that names its parent (a comment its case, a payment its invoice, a message its
// conversation) names a real one, so that a server which loads the parent first still judges the defect: the
// run's validation case, its draft invoice (every probe is refused anyway), and a conversation of the workspace.
// An order's only field is its quotation, so its probes are about that reference and no real one is needed.
import { CheckFailed, createRecord, runLabel, RESOURCES } from '../../src/checks/index.ts'
import type { CheckContext, AnyRecord, ResourceName } from '../../src/checks/index.ts'
import { randomUUID } from 'node:crypto'
import { minimalCreate } from '../shared/bodies.ts'
import { listedOnce, recordsOf } from '../shared/fixtures.ts'

/** A uuid in RFC 4122 form that names no record. */
const NO_SUCH_RECORD = randomUUID()

/** A valid create body with the required fields and nothing else (run tag aside); parents are added by createBase. */
export function createBody(ctx: CheckContext, resource: ResourceName, label = runLabel(ctx, `validation ${resource}`)): AnyRecord {
  return minimalCreate(ctx, resource, label, resource === 'order' ? NO_SUCH_RECORD : undefined)
}

/** The run's own record, or a skip naming it when the server would not create it (the records area judges that). */
async function ownTarget(ctx: CheckContext, resource: ResourceName, forWhat: string): Promise<string> {
  try {
    return String((await target(ctx, resource)).id)
  } catch (error) {
    if (error instanceof CheckFailed) ctx.skip(`the run's validation ${resource} for ${forWhat} to name could not be created: ${error.message}`)
    throw error
  }
}

/** The configured conversation, or that of a listed message (messages cannot make one, §4.2). */
async function someConversationId(ctx: CheckContext): Promise<string> {
  const configured = ctx.config.fixtures.conversationId
  if (configured) return configured
  const id = recordsOf(await listedOnce(ctx, 'message')).find((m) => typeof m?.conversationId === 'string')?.conversationId
  if (!id)
    ctx.skip(
      `no conversation for the message probes to name: GET ${RESOURCES.message.path} lists no message with a conversationId; set CRM_FIXTURE_CONVERSATION_ID`,
    )
  return id
}

/** The id of the record a create names, where the probes need a real one. */
const PARENT_IDS: Partial<Record<ResourceName, (ctx: CheckContext) => Promise<string>>> = {
  comment: (ctx) => ownTarget(ctx, 'case', 'the comment probes'),
  payment: (ctx) => ownTarget(ctx, 'invoice', 'the payment probes'),
  message: someConversationId,
}

/** The valid create body of a probe, naming a real parent where the create has one. */
export async function createBase(ctx: CheckContext, resource: ResourceName, label = runLabel(ctx, `validation ${resource}`)): Promise<AnyRecord> {
  const parentId = PARENT_IDS[resource]
  return parentId ? minimalCreate(ctx, resource, label, await parentId(ctx)) : createBody(ctx, resource, label)
}

/** A record of this run that update and replace probes are sent to: created once, removed by clean-up. */
export function target(ctx: CheckContext, resource: ResourceName): Promise<AnyRecord> {
  return ctx.session.memo(
    `validation:target:${resource}`,
    async () => (await createRecord(ctx, resource, createBody(ctx, resource), { validate: false })).record,
  )
}
