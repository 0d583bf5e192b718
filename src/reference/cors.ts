// `serve --cors`: a browser page on another origin (a front end under development, a QA tool) may call the
// reference server. The spec does not speak of CORS; this only lets a browser through, it changes no answer.
type Fetch = (request: Request, ...rest: never[]) => Response | Promise<Response>

const ALLOWED_HEADERS = 'authorization, content-type, idempotency-key'
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'
/** What a page may read of an answer beyond the CORS-safelisted headers (§8 rate limits, created records). */
const EXPOSED_HEADERS = 'ratelimit-limit, ratelimit-remaining, ratelimit-reset, retry-after, location, etag, link'
/** How long a browser may keep a preflight's answer. */
const PREFLIGHT_MAX_AGE_S = 600

/** `fetch` answering CORS preflights itself and adding the CORS headers to every answer, for `origin` (`*`: any). */
export function withCors<F extends Fetch>(fetch: F, origin: string): F {
  const allow = (request: Request): Record<string, string> => {
    const from = request.headers.get('origin')
    const allowed = origin === '*' ? (from ?? '*') : origin
    return { 'access-control-allow-origin': allowed, vary: 'Origin' }
  }
  const wrapped = async (request: Request, ...rest: never[]): Promise<Response> => {
    if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) {
      return new Response(null, {
        status: 204,
        headers: {
          ...allow(request),
          'access-control-allow-methods': ALLOWED_METHODS,
          'access-control-allow-headers': request.headers.get('access-control-request-headers') ?? ALLOWED_HEADERS,
          'access-control-max-age': String(PREFLIGHT_MAX_AGE_S),
        },
      })
    }
    const response = await fetch(request, ...rest)
    const headers = new Headers(response.headers)
    for (const [name, value] of Object.entries(allow(request))) headers.set(name, value)
    headers.set('access-control-expose-headers', EXPOSED_HEADERS)
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  }
  return wrapped as unknown as F
}
