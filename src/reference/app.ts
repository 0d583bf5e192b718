// The reference server's HTTP surface (Hono): every path and operation of §4.2 under /v1 and /api/v1, behind the
// gate of §5. The rooms it is wired from, each in routes/: responses and errors, the gate (key, rate, IP),
// reading a request, reads, writes, and the special endpoints.

import { brotliCompressSync, gzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { methodNotAllowed } from 'hono/method-not-allowed'
import { RESOURCE_LIST } from '../spec/resources.ts'
import { ApiError } from './api-error.ts'
import { switchedOn, type FaultId, type SwitchesOf } from './faults.ts'
import { BASE_PATHS, type AppState, type Env } from './routes/context.ts'
import { gate } from './routes/gate.ts'
import { readRoutes } from './routes/reads.ts'
import { requestReader } from './routes/request.ts'
import { responses } from './routes/responses.ts'
import { faultOnlyRoutes, meRoute } from './routes/special.ts'
import { writeRoutes } from './routes/writes.ts'

/** The faults this module plays (faults.ts): the only switches its code can read. */
export const ROUTING_FAULTS = [
  'read-only.create-everywhere',
  'read-only.delete-everywhere',
  'read-only.delete-stub-204',
  'read-only.delete-removes-then-404',
  'read-only.user-writes-unscoped',
  'read-only.update-everywhere',
  'invariants.framework-default-errors',
] as const satisfies readonly FaultId[]

export { BASE_PATHS, HTTP_DEFAULTS, type AppState } from './routes/context.ts'

export function createApp(state: AppState): Hono<Env> {
  const { variant } = state
  const faults: SwitchesOf<typeof ROUTING_FAULTS> = state.faults
  const injected = switchedOn(state.faults).length > 0
  const out = responses(state)
  const { errorResponse } = out
  const req = requestReader(state)
  const { list, get } = readRoutes(state, req, out)
  const writes = writeRoutes(state, req, out)
  const { create, change, remove } = writes
  const { createAnything, acceptAnyUpdate, deleteStub, unscopedCreate, unscopedUpdate } = faultOnlyRoutes(state, req, out, writes)

  const api = new Hono<Env>()
  api.get('/me', meRoute(state))
  for (const spec of RESOURCE_LIST) {
    const item = `${spec.path}/:id`
    if (spec.ops.list) api.get(spec.path, list(spec))
    if (spec.ops.create) api.post(spec.path, create(spec))
    else if (faults['read-only.create-everywhere']) api.post(spec.path, createAnything(spec))
    if (spec.ops.get) api.get(item, get(spec))
    if (spec.ops.update) api.on(variant.updateMethod, item, change(spec, 'update'))
    if (spec.ops.replace) api.put(item, change(spec, 'replace'))
    if (spec.ops.delete || faults['read-only.delete-everywhere']) api.delete(item, remove(spec))
    // The fault: the read-only collections got a DELETE stub that answers 204 without looking anything up.
    else if (faults['read-only.delete-stub-204']) api.delete(item, deleteStub)
    // The fault: a catch-all DELETE removes the record, then the router answers 404 as for any unrouted method.
    else if (faults['read-only.delete-removes-then-404'])
      api.delete(item, async (c) => {
        await remove(spec)(c)
        return errorResponse(c, new ApiError(404, 'not_found', 'No such endpoint.'))
      })
    // The fault: user writes are routed to the generic handlers, whose scope check was left out for users.
    if (spec.name === 'user' && faults['read-only.user-writes-unscoped']) {
      api.post(spec.path, unscopedCreate)
      api.on(['PATCH', 'PUT'], item, unscopedUpdate(spec))
    }
    if (!spec.ops.update && !spec.ops.replace && faults['read-only.update-everywhere']) api.on(['PATCH', 'PUT'], item, acceptAnyUpdate(spec))
  }

  const app = new Hono<Env>()
  // The variant's framing of every answer, the gate's refusals included: the JSON media type with its
  // parameters, a connection closed after each answer, a body compressed whatever the request asked.
  if (variant.jsonContentType || variant.errorContentType || variant.connectionClose || variant.compressAlways) {
    app.use(async (c, next) => {
      await next()
      const type = variant.errorContentType && c.res.status >= 400 ? variant.errorContentType : variant.jsonContentType
      if (type && /^application\/json\b/i.test(c.res.headers.get('content-type') ?? '')) c.res.headers.set('Content-Type', type)
      if (variant.connectionClose) c.res.headers.set('Connection', 'close')
      if (variant.compressAlways && c.res.body) {
        const headers = new Headers(c.res.headers)
        headers.set('Content-Encoding', variant.compressAlways)
        headers.delete('Content-Length')
        const plain = Buffer.from(await c.res.arrayBuffer())
        c.res = new Response(variant.compressAlways === 'br' ? brotliCompressSync(plain) : gzipSync(plain), { status: c.res.status, headers })
      }
    })
  }
  app.use(gate(state, out))
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) => {
        if (variant.unroutedMethods === 'not-implemented-501' && !faults['invariants.framework-default-errors'])
          return errorResponse(c, new ApiError(501, 'not_implemented', `${c.req.method} is not implemented on this path.`))
        const asNotFound =
          variant.unroutedMethods === 'not-found-404' || (variant.unroutedUpdate === 'not-found-404' && (c.req.method === 'PATCH' || c.req.method === 'PUT'))
        // The fault: the framework's defaults answer, as plain text, whichever status the variant routes with.
        if (faults['invariants.framework-default-errors'])
          return asNotFound ? c.text('404 Not Found', 404) : c.text('405 Method Not Allowed', 405, { Allow: methods.join(', ') })
        return asNotFound
          ? errorResponse(c, new ApiError(404, 'not_found', 'No such endpoint.'))
          : errorResponse(c, new ApiError(405, 'method_not_allowed', `Use ${methods.join(', ')} on this path.`, undefined, { Allow: methods.join(', ') }))
      },
    }),
  )
  for (const base of BASE_PATHS) app.route(base, api)

  // The fault: the framework's defaults answer unknown paths and wrong methods, as plain text.
  app.notFound((c) =>
    faults['invariants.framework-default-errors'] ? c.text('404 Not Found', 404) : errorResponse(c, new ApiError(404, 'not_found', 'No such endpoint.')),
  )
  app.onError((err, c) => {
    if (err instanceof ApiError) return errorResponse(c, err)
    if (err instanceof HTTPException && err.status < 500) {
      return errorResponse(c, new ApiError(err.status, err.status === 413 ? 'payload_too_large' : 'invalid_request', err.message || 'Bad request.'))
    }
    // A bug of ours: say so, never blame the caller. Under an injected fault the 500 is the fault's, on purpose.
    if (!injected) console.error('[reference] internal error:', err)
    return errorResponse(c, new ApiError(500, 'internal_error', 'Internal error.'))
  })
  return app
}
