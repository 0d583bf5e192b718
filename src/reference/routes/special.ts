// Special endpoints: GET /me (§2, §5.9) in the variant's shape, and the handlers only a fault routes (a generic
// router's create, update and delete on the read-only collections).

import type { ResourceSpec } from '../../spec/resources.ts'
import type { FaultId, SwitchesOf } from '../faults.ts'
import type { AppState, Ctx } from './context.ts'
import type { RequestReader } from './request.ts'
import type { Responses } from './responses.ts'
import type { writeRoutes } from './writes.ts'

/** The faults this module plays (faults.ts): the only switches its code can read. */
export const SPECIAL_FAULTS = [
  'discovery.me-without-scopes',
  'discovery.me-double-encoded',
  'discovery.me-without-workspace',
  'discovery.me-without-key-name',
  'discovery.me-without-user',
] as const satisfies readonly FaultId[]

export function meRoute(state: AppState) {
  const { store, variant } = state
  const faults: SwitchesOf<typeof SPECIAL_FAULTS> = state.faults
  return (c: Ctx) => {
    const key = c.get('key')
    const user = store.get(key.workspace, 'user', key.userId)?.record
    const workspace = state.workspaces.get(key.workspace)!
    const actor = { id: key.userId, email: user?.email ?? null, displayName: user?.displayName ?? null, role: key.ownerRole }
    if (variant.meShape === 'flat') {
      return c.json({ workspace: workspace.id, workspaceName: workspace.name, name: key.name, scopes: key.scopes.join(' '), actor })
    }
    if (variant.meShape === 'scope-map') {
      const permissions: Record<string, string[]> = {}
      for (const scope of key.scopes) (permissions[scope.split(':')[0]!] ??= []).push(scope.split(':')[1]!)
      return c.json({ workspace: { id: workspace.id, name: workspace.name }, apiKey: { label: key.name, permissions }, actingUser: actor })
    }
    // The fault: the key is serialised with its name only, so /me shows no scopes.
    // Faults: the key serialised without its scopes, or without its name; the workspace or the user left out.
    const body = {
      ...(faults['discovery.me-without-workspace'] ? {} : { workspace: { id: workspace.id, name: workspace.name } }),
      key: {
        ...(faults['discovery.me-without-key-name'] ? { id: key.role } : { name: key.name }),
        ...(faults['discovery.me-without-scopes'] ? {} : { scopes: [...key.scopes] }),
      },
      ...(faults['discovery.me-without-user'] ? {} : { user: actor }),
    }
    // The fault: the body is stringified before c.json, which encodes it again: a JSON string, not an object.
    return c.json(faults['discovery.me-double-encoded'] ? JSON.stringify(body) : body)
  }
}

/** The handlers of the read-only faults: routes the spec does not have, as a generic router registers them. */
export function faultOnlyRoutes(state: AppState, { allow, find, readBody }: RequestReader, { present }: Responses, { commit }: ReturnType<typeof writeRoutes>) {
  const { clock, variant } = state

  /** The `read-only.create-everywhere` fault: a generic create that stores the body's record fields. */
  const createAnything = (spec: ResourceSpec) => async (c: Ctx) => {
    const key = allow(c, spec, 'create')
    const body = await readBody(c)
    const at = clock.stamp()
    const values = Object.fromEntries(Object.entries(body).filter(([f]) => f in spec.record && f !== 'id'))
    const rec = commit(spec, key.workspace, crypto.randomUUID(), at, at, { record: values, hidden: {} })
    return c.json(present(spec, rec.record), variant.createStatus)
  }

  /** The `read-only.update-everywhere` fault: a generic update that answers the record unchanged. */
  const acceptAnyUpdate = (spec: ResourceSpec) => (c: Ctx) => {
    allow(c, spec, 'update')
    return c.json(present(spec, find(c, spec).record))
  }

  /** The `read-only.delete-stub-204` fault: a DELETE stub that answers 204 without looking anything up. */
  const deleteStub = (c: Ctx) => c.body(null, 204)

  /** The `read-only.user-writes-unscoped` fault: user writes on generic handlers whose scope check was left out. */
  const unscopedCreate = (c: Ctx) => c.json({ id: crypto.randomUUID() }, variant.createStatus)
  const unscopedUpdate = (spec: ResourceSpec) => (c: Ctx) => c.json(present(spec, find(c, spec).record))

  return { createAnything, acceptAnyUpdate, deleteStub, unscopedCreate, unscopedUpdate }
}
