// §4.4 write bodies as properties: generated valid bodies are accepted and read back as written; generated
// bodies with one explicit defect get the §7.3 400 naming the field. One check per resource and property,
// generated from the spec tables; each runs CRM_PBT_RUNS cases from the run seed.
import {
  expectInvalidRequest,
  expectSchema,
  CheckFailed,
  defineCheck,
  createRecord,
  itemPath,
  replaceRecord,
  tagged,
  trackCreated,
  updateRecord,
  invalidBody,
  validBody,
  recordKey,
  RESOURCES,
  composedFields,
} from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, ApiResponse, AnyRecord, BodyOptions, Defect, ResourceName, WriteOp } from '../../src/checks/index.ts'
import { baseRecord } from './base.ts'
import { changedUnsent, cleared, differences } from './meaning.ts'
import { checkProperty } from './property.ts'
import { CHANGEABLE, CREATABLE, bodyOptions } from './targets.ts'

const area = 'bodies'

/** GET the record back; a read that fails is the server's fault (§4.2 "get … returns the single record"). */
async function readBack(ctx: CheckContext, resource: ResourceName, id: string): Promise<ApiResponse> {
  const res = await ctx.api.get(itemPath(resource, id))
  if (res.status !== 200)
    ctx.fail(`GET ${itemPath(resource, id)} after a write: status is ${res.status}, expected 200 (§4.2)`, { exchanges: [res.exchange], data: res.body })
  return res
}

/** Fails when the record (as `what` returned it) does not mean what was sent. */
function expectWritten(ctx: CheckContext, resource: ResourceName, op: WriteOp, sent: AnyRecord, res: ApiResponse, what: string, evidence: ApiResponse[]): void {
  // A field the server may compose from others (a contact's fullName) is judged for presence only; its value is reported.
  for (const field of composedFields(resource, sent)) if (field in sent) ctx.observe(`${field}.composed`, { sent: sent[field], returned: res.body?.[field] })
  const diffs = differences(resource, op, sent, res.body)
  if (diffs.length > 0) {
    ctx.fail(
      `${what} does not hold what was written: ${diffs.map((d) => `${d.field} sent ${JSON.stringify(d.sent)}, got ${JSON.stringify(d.got)}`).join('; ')} (§4.4, §4.2)`,
      {
        expected: 'every field written is returned with the same meaning (§4.2: responses carry the record)',
        exchanges: evidence.map((r) => r.exchange),
        data: diffs,
      },
    )
  }
}

/** Renames the failure so the defect it was about leads the message. */
async function aboutDefect(defect: Defect, action: () => void | Promise<void>): Promise<void> {
  try {
    await action()
  } catch (error) {
    if (error instanceof CheckFailed) throw new CheckFailed(`${defect.kind} at ${defect.path}: ${error.message}`, error.detail)
    throw error
  }
}

/** The body as sent: with the run tag, unless the defect is in `tags` itself. */
function sendable(ctx: CheckContext, resource: ResourceName, body: AnyRecord, defect?: Defect): AnyRecord {
  return defect?.path === 'tags' ? body : tagged(ctx, resource, body)
}

/**
 * A check of one resource's write op as a property: MUST, safe writes, its cases drawn for `purpose` (valid bodies
 * for a roundtrip, bodies with one defect for an invalid check); `start` does the run's set-up and returns the
 * judgement of one case.
 */
function propertyCheck<T>(
  resource: ResourceName,
  op: WriteOp,
  purpose: 'roundtrip' | 'invalid',
  title: string,
  cases: (resource: ResourceName, op: WriteOp, options: BodyOptions) => Parameters<typeof checkProperty<T>>[2],
  start: (ctx: CheckContext) => Promise<(value: T) => Promise<void>>,
): CheckDefinition {
  const id = `bodies.${resource}.${op}-${purpose}`
  return defineCheck({
    id,
    clauses: purpose === 'roundtrip' ? ['§4.4', '§4.1', '§4.2', '§2'] : ['§4.4', '§7.3', '§7.2', '§4.1'],
    level: 'MUST',
    area,
    writes: 'safe',
    title,
    async run(ctx) {
      const judge = await start(ctx)
      await checkProperty(ctx, id, cases(resource, op, bodyOptions(ctx, resource, op, purpose)), judge)
    },
  })
}

/** An update or a replace of the record `id`. */
function change(ctx: CheckContext, resource: ResourceName, op: 'update' | 'replace', id: string, body: AnyRecord): Promise<ApiResponse> {
  return op === 'update' ? updateRecord(ctx, resource, id, body) : replaceRecord(ctx, resource, id, body)
}

function createRoundtrip(resource: ResourceName): CheckDefinition {
  const title = `POST ${RESOURCES[resource].path} accepts generated valid bodies, and the record returned and read back holds what was written`
  return propertyCheck(resource, 'create', 'roundtrip', title, validBody, async (ctx) => async (body) => {
    const sent = sendable(ctx, resource, body)
    const { record, response } = await createRecord(ctx, resource, sent)
    expectWritten(ctx, resource, 'create', sent, response, 'the create response', [response])
    const read = await readBack(ctx, resource, record.id)
    expectWritten(ctx, resource, 'create', sent, read, 'the record read back', [response, read])
  })
}

function changeRoundtrip(resource: ResourceName, op: 'update' | 'replace'): CheckDefinition {
  const path = `${RESOURCES[resource].path}/{id}`
  const title =
    op === 'update'
      ? `Update ${path} accepts generated valid bodies: the fields sent are read back as written, the others keep their values`
      : `Replace ${path} accepts generated complete bodies, and the record read back holds what was written`
  return propertyCheck(resource, op, 'roundtrip', title, validBody, async (ctx) => {
    const base = await baseRecord(ctx, resource)
    let before: AnyRecord = base
    return async (body) => {
      const sent = sendable(ctx, resource, body)
      const res = await change(ctx, resource, op, base.id, sent)
      if (!res.ok) ctx.fail(`${op} ${resource}: status is ${res.status}, expected a 2xx for a valid body (§4.4)`, { exchanges: [res.exchange], data: res.body })
      expectSchema(res, recordKey(resource), '§4.2')
      expectWritten(ctx, resource, op, sent, res, `the ${op} response`, [res])
      const read = await readBack(ctx, resource, base.id)
      expectWritten(ctx, resource, op, sent, read, 'the record read back', [res, read])
      if (op === 'update') {
        const changed = changedUnsent(resource, op, sent, before, read.body)
        const lost = changed.filter(cleared)
        if (changed.length > lost.length)
          ctx.observe(
            'update.recomputedUnsentFields',
            changed.filter((c) => !cleared(c)).map((c) => c.field),
          )
        if (lost.length > 0) {
          ctx.fail(
            `the update cleared fields it was not sent: ${lost.map((c) => `${c.field} ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`).join('; ')} (§4.4)`,
            {
              expected: '§4.4 "on update all fields optional": fields not sent keep their values (a server may recompute one from those sent, never clear it)',
              exchanges: [res.exchange, read.exchange],
              data: lost,
            },
          )
        }
      }
      before = read.body
    }
  })
}

function createInvalid(resource: ResourceName): CheckDefinition {
  const path = RESOURCES[resource].path
  const title = `POST ${path} refuses a body with one defect (missing, wrong type, outside the enum, not a uuid, not an integer) with 400 invalid_request naming the field`
  return propertyCheck(resource, 'create', 'invalid', title, invalidBody, async (ctx) => async ({ body, defect }) => {
    const res = await ctx.api.post(path, sendable(ctx, resource, body, defect))
    // A wrongly accepted body made a record: it is removed at the end like the others.
    if (res.ok && typeof res.body?.id === 'string') trackCreated(ctx, resource, res.body.id)
    await aboutDefect(defect, () => expectInvalidRequest(res, defect.path, '§7.3'))
  })
}

function changeInvalid(resource: ResourceName, op: 'update' | 'replace'): CheckDefinition {
  const title = `${op === 'update' ? 'Update' : 'Replace'} ${RESOURCES[resource].path}/{id} refuses a body with one defect with 400 invalid_request naming the field`
  return propertyCheck(resource, op, 'invalid', title, invalidBody, async (ctx) => {
    const base = await baseRecord(ctx, resource)
    return async ({ body, defect }) => {
      const res = await change(ctx, resource, op, base.id, sendable(ctx, resource, body, defect))
      await aboutDefect(defect, () => expectInvalidRequest(res, defect.path, '§7.3'))
    }
  })
}

export const checks: CheckDefinition[] = [
  ...CREATABLE.map(createRoundtrip),
  ...CHANGEABLE.map(({ resource, op }) => changeRoundtrip(resource, op)),
  ...CREATABLE.map(createInvalid),
  ...CHANGEABLE.map(({ resource, op }) => changeInvalid(resource, op)),
]
