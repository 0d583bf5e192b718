// §5.3(b), §5.6, §7.5: a key is limited by its owner's role as well as by its scopes. CRM_API_KEY_ROLE_LIMITED is a
// key with every scope whose owner's role may not perform the operations CRM_API_KEY_ROLE_LIMITED_DENIED lists
// (`METHOD /path` pairs): each is refused with 403 and the error envelope and changes nothing (read back with the
// main key), and an operation outside the list is still served with the same key.
import {
  expectErrorEnvelope,
  CheckFailed,
  defineCheck,
  KEY_COMPANIONS,
  KEY_VARIABLES,
  createRecord,
  itemPath,
  runLabel,
  tagged,
  trackCreated,
  RESOURCE_LIST,
  RESOURCES,
} from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, AnyRecord, ApiClient, ApiResponse, ResourceName } from '../../src/checks/index.ts'
import { isDeepStrictEqual } from 'node:util'
import { createNeeds, MissingReference, REPLACE_BODIES, validCreateBody, type ValidBody } from '../shared/bodies.ts'
import { baseline, createdDespite } from '../shared/created-despite.ts'

const area = 'auth'
const DENIED = KEY_COMPANIONS.roleLimited!
const KEY = KEY_VARIABLES.roleLimited

/** Collections whose records a role-limited key may create, tried in this order when none of them is named. */
const ALLOWED_CANDIDATES: ResourceName[] = ['task', 'account', 'contact', 'case', 'lead']
/** The free-text field an update to the record changes, per resource. */
const TEXT_FIELDS = ['name', 'fullName', 'subject', 'title']

interface Denial {
  /** As declared: `DELETE /accounts/{id}`. */
  text: string
  method: string
  /** The collection of §4.2 the path names, if any. */
  resource?: ResourceName
  /** The path names one record (`/accounts/{id}` or `/accounts/:id`). */
  item: boolean
  path: string
}

export function parseDenial(text: string): Denial {
  const [method = '', path = ''] = text.split(' ')
  const m = /^(\/[^/{}:]+)(?:\/(?:\{[^}]*\}|:[A-Za-z_]+))?\/?$/.exec(path)
  const resource = m ? RESOURCE_LIST.find((r) => r.path === m[1])?.name : undefined
  return { text, method: method.toUpperCase(), resource, item: resource !== undefined && path.replace(/\/$/, '') !== m![1], path }
}

function deniedOrSkip(ctx: CheckContext): Denial[] {
  const denied = ctx.config.roleLimitedDenied
  if (!denied || denied.length === 0) ctx.skip(`${DENIED} is not set (it goes with ${KEY}): the operations the key's owner may not perform are unknown`)
  return denied.map(parseDenial)
}

interface Outcome {
  denial: Denial
  /** Why the call was not sent. */
  unsent?: string
  response?: ApiResponse
  /** What the main key read back afterwards showed changed; absent when nothing changed. */
  changed?: string
  /** The record could be read back, so a change would have shown. */
  judged: boolean
  /** A 404 for a record the key cannot see either (§5.7): whether §5.6 or §5.7 answers first is not shown. */
  hiddenFromKey?: boolean
  evidence: ApiResponse[]
}

const PROFILE_RANK = { 'read-only': 0, safe: 1, full: 2 } as const

/** A record of this run for the call to name: created with the main key, removed by clean-up. */
async function ownTarget(ctx: CheckContext, resource: ResourceName): Promise<AnyRecord | string> {
  const spec = RESOURCES[resource]
  if (!spec.ops.create) return `the API creates no ${resource}, and the suite sends no write to a record it did not create`
  if (PROFILE_RANK[createNeeds(resource)] > PROFILE_RANK[ctx.profile]) return `a ${resource} needs the full profile to be created`
  let valid: ValidBody
  try {
    valid = await validCreateBody(ctx, resource, 'role target')
  } catch (error) {
    if (error instanceof MissingReference) return `a ${resource} to name needs ${error.message}`
    throw error
  }
  if (valid.statefulFixture) return `a ${resource} would use up ${valid.statefulFixture}`
  return (await createRecord(ctx, resource, valid.body, { validate: false })).record
}

/** A body that changes the record: the complete replace body where the resource has one (§4.4), else one text field. */
function changeBody(ctx: CheckContext, resource: ResourceName, method: string, record: AnyRecord): AnyRecord | undefined {
  const spec = RESOURCES[resource]
  const label = runLabel(ctx, 'role denied change')
  const replace = REPLACE_BODIES[resource]
  const fields = Object.keys((method === 'PUT' && spec.replace ? spec.replace : (spec.update ?? spec.replace))?.fields ?? {})
  const text = TEXT_FIELDS.find((f) => fields.includes(f))
  if (!text) return undefined
  const base = method === 'PUT' && replace ? replace(record) : {}
  return { ...base, [text]: label }
}

function sendAs(client: ApiClient, method: string, path: string, body?: unknown): Promise<ApiResponse> {
  return client.send({ method, path, ...(body === undefined ? {} : { body }) })
}

async function tryDenial(ctx: CheckContext, denial: Denial): Promise<Outcome> {
  const limited = ctx.as('roleLimited')
  const { resource, method } = denial
  const outcome = (o: Partial<Outcome>): Outcome => ({ denial, judged: false, evidence: [], ...o })
  if (!resource) {
    if (/\{|\/:/.test(denial.path)) return outcome({ unsent: 'the path names a record of no collection of §4.2, which the suite cannot pick' })
    const response = await sendAs(limited, method, denial.path, method === 'GET' || method === 'DELETE' ? undefined : {})
    return outcome({ response, evidence: [response] })
  }
  const spec = RESOURCES[resource]

  if (!denial.item) {
    if (method === 'GET') {
      const response = await limited.get(spec.path, { limit: 1 })
      return outcome({ response, evidence: [response], judged: true })
    }
    if (method !== 'POST') {
      const response = await sendAs(limited, method, spec.path, method === 'DELETE' ? undefined : {})
      return outcome({ response, evidence: [response] })
    }
    if (PROFILE_RANK[createNeeds(resource)] > PROFILE_RANK[ctx.profile])
      return outcome({ unsent: `a wrong answer would create a ${resource}, which needs the full profile` })
    let valid: ValidBody
    try {
      valid = await validCreateBody(ctx, resource, 'role denied create')
    } catch (error) {
      if (error instanceof MissingReference) return outcome({ unsent: `a valid ${resource} body needs ${error.message}` })
      throw error
    }
    if (valid.statefulFixture) return outcome({ unsent: `a wrong answer would use up ${valid.statefulFixture}` })
    const before = await baseline(ctx, resource, valid)
    const response = await limited.post(spec.path, tagged(ctx, resource, valid.body))
    if (response.ok && typeof response.body?.id === 'string') trackCreated(ctx, resource, response.body.id)
    const after = await createdDespite(ctx, resource, valid, before)
    return outcome({
      response,
      judged: after.ids !== undefined,
      changed: after.created.length > 0 ? `${resource} ${after.created[0]} was created` : undefined,
      evidence: [response, after.response],
    })
  }

  if (method === 'GET') {
    const listed = await ctx.api.get(spec.path, { limit: 1 })
    const id = listed.ok ? listed.body?.data?.[0]?.id : undefined
    if (typeof id !== 'string') return outcome({ unsent: `GET ${spec.path} with ${KEY_VARIABLES.main} lists no ${resource} to read` })
    const response = await limited.get(itemPath(resource, id))
    return outcome({ response, evidence: [response], judged: true })
  }
  const target = await ownTarget(ctx, resource)
  if (typeof target === 'string') return outcome({ unsent: target })
  const path = itemPath(resource, target.id)
  const before = await ctx.api.get(path)
  if (!before.ok) return outcome({ unsent: `GET ${spec.path}/{id} of the run's own ${resource} answered ${before.status} with ${KEY_VARIABLES.main}` })
  const body = method === 'DELETE' ? undefined : changeBody(ctx, resource, method, before.body)
  if (method !== 'DELETE' && !body) return outcome({ unsent: `no text field of a ${resource} to change` })
  const response = await sendAs(limited, method, path, body)
  const after = await ctx.api.get(path)
  const evidence = [before, response, after]
  // §5.7: a record the key cannot see is a 404; only then does a 404 count as the refusal.
  const hiddenFromKey = response.status === 404 ? !(await limited.get(path)).ok : undefined
  if (method === 'DELETE') {
    return outcome({
      response,
      evidence,
      judged: true,
      hiddenFromKey,
      changed: after.status === 404 ? `${resource} ${target.id} is gone (GET answers 404)` : undefined,
    })
  }
  if (!after.ok) return outcome({ response, evidence, judged: true, hiddenFromKey, changed: `GET ${spec.path}/${target.id} answers ${after.status}` })
  const altered = Object.keys(body!).filter((f) => !isDeepStrictEqual(body![f], before.body[f]) && !isDeepStrictEqual(after.body[f], before.body[f]))
  return outcome({
    response,
    evidence,
    judged: true,
    hiddenFromKey,
    changed:
      altered.length > 0
        ? `${altered.map((f) => `${f} went from ${JSON.stringify(before.body[f])} to ${JSON.stringify(after.body[f])}`).join('; ')}`
        : undefined,
  })
}

/** Every declared denial, sent once per run with the role-limited key and read back with the main key. */
function denials(ctx: CheckContext): Promise<Outcome[]> {
  const declared = deniedOrSkip(ctx)
  return ctx.session.memo('auth.role.denials', () => Promise.all(declared.map((d) => tryDenial(ctx, d))))
}

function sentOrSkip(ctx: CheckContext, outcomes: Outcome[]): Outcome[] {
  const sent = outcomes.filter((o) => o.response)
  for (const o of outcomes) if (o.unsent) ctx.note(`${o.denial.text}: not sent: ${o.unsent}`)
  if (sent.length === 0) ctx.skip(`no declared denial could be sent: ${outcomes.map((o) => `${o.denial.text} (${o.unsent})`).join('; ')}`)
  return sent
}

const deniedRefused = defineCheck({
  id: 'auth.role.denied-refused',
  clauses: ['§5.3', '§5.6', '§7.5'],
  level: 'MUST',
  area,
  title: "Every operation the key owner's role may not perform (CRM_API_KEY_ROLE_LIMITED_DENIED) is refused with 403 and the error envelope",
  keys: ['roleLimited'],
  writes: 'safe',
  async run(ctx) {
    const sent = sentOrSkip(ctx, await denials(ctx))
    const wrong = sent.filter((o) => o.response!.status !== 403 && !(o.response!.status === 404 && o.hiddenFromKey))
    ctx.observe('refused', sent.length - wrong.length)
    const hidden = sent.filter((o) => o.response!.status === 404 && o.hiddenFromKey)
    if (hidden.length > 0)
      ctx.observe(
        'refusedAsNotFound',
        hidden.map((o) => o.denial.text),
      )
    if (wrong.length > 0) {
      ctx.fail(
        `${wrong.length} of ${sent.length} operations the owner's role may not perform were not refused with 403: ${wrong.map((o) => `${o.denial.text} → ${o.response!.status}`).join(', ')} (§5.3, §5.6)`,
        {
          expected:
            "§5.3(b): calls are limited by the role of the key's owner; §5.6: a call refused by owner role gives 403 (a 404 only for a record the key cannot see at all, §5.7)",
          exchanges: wrong.slice(0, 3).map((o) => o.response!.exchange),
        },
      )
    }
    for (const o of sent) {
      try {
        expectErrorEnvelope(o.response!, '§7.1')
      } catch (error) {
        if (error instanceof CheckFailed) ctx.fail(`${o.denial.text}: ${error.message}`, { ...error.detail, exchanges: [o.response!.exchange] })
        throw error
      }
    }
  },
})

const deniedChangesNothing = defineCheck({
  id: 'auth.role.denied-changes-nothing',
  clauses: ['§5.3', '§5.6'],
  level: 'MUST',
  area,
  title: "An operation refused by the owner's role changes nothing: the main key reads the record back as it was (and finds no record created)",
  keys: ['roleLimited'],
  writes: 'safe',
  async run(ctx) {
    const sent = sentOrSkip(ctx, await denials(ctx))
    const refused = sent.filter((o) => !o.response!.ok && o.judged)
    if (refused.length === 0) ctx.skip('no declared denial was refused and read back (auth.role.denied-refused reports the answers)')
    ctx.observe(
      'readBack',
      refused.map((o) => o.denial.text),
    )
    const changed = refused.filter((o) => o.changed)
    if (changed.length > 0) {
      ctx.fail(
        `${changed.length} refused operation(s) changed data anyway: ${changed.map((o) => `${o.denial.text} answered ${o.response!.status}, but ${o.changed}`).join('; ')} (§5.6)`,
        {
          expected: 'a call refused by owner role changes nothing (§5.3, §5.6)',
          exchanges: changed.slice(0, 2).flatMap((o) => o.evidence.map((r) => r.exchange)),
        },
      )
    }
  },
})

const allowedServed = defineCheck({
  id: 'auth.role.allowed-served',
  clauses: ['§5.3', '§1'],
  level: 'MUST',
  area,
  title: "The role-limited key is still served for what its owner's role may do: it creates a record in a collection no declared denial names",
  keys: ['roleLimited'],
  writes: 'safe',
  async run(ctx) {
    const declared = deniedOrSkip(ctx)
    const named = new Set(declared.map((d) => d.resource))
    const resource = ALLOWED_CANDIDATES.find((r) => !named.has(r))
    if (!resource)
      return ctx.skip(`${DENIED} names every collection the suite would create in (${ALLOWED_CANDIDATES.map((r) => RESOURCES[r].path).join(', ')})`)
    const valid = await validCreateBody(ctx, resource, 'role allowed create')
    const res = await ctx.as('roleLimited').post(RESOURCES[resource].path, tagged(ctx, resource, valid.body))
    if (res.ok && typeof res.body?.id === 'string') trackCreated(ctx, resource, res.body.id)
    ctx.observe('operation', `POST ${RESOURCES[resource].path}`)
    if (!res.ok) {
      ctx.fail(
        `POST ${RESOURCES[resource].path} with ${KEY} answered ${res.status}, expected a 2xx: ${DENIED} does not name ${RESOURCES[resource].path}, and the key has every scope (§5.3)`,
        {
          expected: `a key is limited by its scopes and its owner's role only (§5.3); an operation the role may perform is served (name it in ${DENIED} if the role may not)`,
          exchanges: [res.exchange],
          data: res.body,
        },
      )
    }
  },
})

export const checks: CheckDefinition[] = [deniedRefused, deniedChangesNothing, allowedServed]
