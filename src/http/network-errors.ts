// Why a request got no answer, in one line a user can act on, never OpenSSL's internals.

export interface DescribedError {
  /** CRMCONF_TIMEOUT or CRMCONF_NETWORK. */
  code: 'CRMCONF_TIMEOUT' | 'CRMCONF_NETWORK'
  message: string
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT'])
const UNTRUSTED_CA_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_UNTRUSTED',
])

interface ErrorLike {
  name?: string
  code?: unknown
  message?: string
  cause?: unknown
}

/** The error and its causes, outermost first (undici wraps the socket's error in its own). */
function chain(cause: unknown): ErrorLike[] {
  const out: ErrorLike[] = []
  let current = cause
  while (current && typeof current === 'object' && out.length < 5) {
    out.push(current as ErrorLike)
    current = (current as ErrorLike).cause
  }
  return out
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

export function describeNetworkError(cause: unknown, url: string, timeoutMs: number): DescribedError {
  const errors = chain(cause)
  // A DOMException (the deadline's TimeoutError) has a numeric legacy code (23): name it instead.
  const codes = errors.map((e) => (typeof e.code === 'string' ? e.code : (e.name ?? '')))
  const has = (test: (code: string, error: ErrorLike) => boolean) => errors.some((e, i) => test(codes[i]!, e))
  const code = codes.find((c) => c !== '' && c !== 'Error') ?? 'error'
  let origin = url
  try {
    const parsed = new URL(url)
    origin = `${parsed.hostname}:${parsed.port || (parsed.protocol === 'https:' ? '443' : '80')}`
  } catch {
    /* keep the text as given */
  }
  const network = (message: string): DescribedError => ({ code: 'CRMCONF_NETWORK', message: oneLine(message) })

  if (has((c, e) => e.name === 'TimeoutError' || TIMEOUT_CODES.has(c))) {
    const which = codes.find((c) => TIMEOUT_CODES.has(c)) ?? 'TimeoutError'
    return { code: 'CRMCONF_TIMEOUT', message: `no complete answer within ${timeoutMs} ms (${which}; CRM_REQUEST_TIMEOUT_MS)` }
  }
  if (has((c, e) => c === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number|packet length too long|unknown protocol/i.test(e.message ?? ''))) {
    return network(`${origin} does not speak TLS on that port: use http:// or the TLS port (ERR_SSL_WRONG_VERSION_NUMBER)`)
  }
  if (has((_c, e) => /before secure TLS connection was established/i.test(e.message ?? ''))) {
    return network(`${origin} closed the connection during the TLS handshake: if it does not speak TLS on that port, use http:// or the TLS port`)
  }
  const untrusted = codes.find((c) => UNTRUSTED_CA_CODES.has(c))
  if (untrusted) {
    return network(
      `the TLS certificate of ${origin} is not signed by a CA this machine trusts (self-signed or a private CA): set NODE_EXTRA_CA_CERTS to the CA's PEM file (${untrusted})`,
    )
  }
  if (codes.includes('CERT_HAS_EXPIRED')) return network(`the TLS certificate of ${origin} has expired (CERT_HAS_EXPIRED)`)
  if (codes.includes('ERR_TLS_CERT_ALTNAME_INVALID')) {
    return network(`the TLS certificate of ${origin} is not issued for that host name: use the name the certificate names (ERR_TLS_CERT_ALTNAME_INVALID)`)
  }
  if (codes.some((c) => c.startsWith('ERR_SSL_') || c.startsWith('ERR_TLS_') || c === 'EPROTO')) {
    return network(`the TLS handshake with ${origin} failed (${codes.find((c) => c.startsWith('ERR_SSL_') || c.startsWith('ERR_TLS_') || c === 'EPROTO')})`)
  }
  if (codes.includes('ECONNREFUSED'))
    return network(`${origin} refused the connection: nothing listens there (is the server running, is the port right?) (ECONNREFUSED)`)
  if (codes.includes('ENOTFOUND') || codes.includes('EAI_AGAIN')) {
    return network(
      `the host name of ${origin} does not resolve (DNS): check the host in CRM_BASE_URL (${codes.includes('ENOTFOUND') ? 'ENOTFOUND' : 'EAI_AGAIN'})`,
    )
  }
  if (codes.includes('EHOSTUNREACH') || codes.includes('ENETUNREACH')) return network(`${origin} cannot be reached from this machine: no route (${code})`)
  if (codes.includes('UND_ERR_HEADERS_OVERFLOW'))
    return network(`the response headers are larger than the 16 KiB the client reads: no answer was read (UND_ERR_HEADERS_OVERFLOW)`)
  if (codes.includes('UND_ERR_RES_CONTENT_LENGTH_MISMATCH')) {
    return network(`the response body does not match its Content-Length (UND_ERR_RES_CONTENT_LENGTH_MISMATCH)`)
  }
  if (codes.some((c) => c.startsWith('HPE_')))
    return network(`the answer is not valid HTTP/1.1 (${codes.find((c) => c.startsWith('HPE_'))}: ${errors[0]?.message ?? ''})`)
  // undici's HTTP/1.1 client refuses any `100 Continue` (it never sends Expect: 100-continue), though RFC 9110
  // §15.2 lets a server send one unasked: said as what it is, not as a closed connection. interim-answers.ts reads
  // past ordinary ones; what still gets here is one over its bound, or an answer sent before any request.
  if (codes.includes('UND_ERR_SOCKET') && errors.some((e) => e.message === 'bad response'))
    return network(
      `${origin} answered with an interim status the HTTP client cannot read past, most likely a \`100 Continue\` nobody asked for (the suite never sends Expect: 100-continue); the final answer was not read (UND_ERR_SOCKET: bad response)`,
    )
  if (codes.includes('ECONNRESET') || codes.includes('UND_ERR_SOCKET') || codes.includes('EPIPE')) {
    return network(`${origin} closed the connection before the answer was complete (${code}: ${errors[0]?.message ?? 'reset'})`)
  }
  if (codes.includes('UND_ERR_PRX_TLS') || /proxy/i.test(errors[0]?.message ?? '')) {
    return network(`the proxy refused or failed the request: check HTTP_PROXY / HTTPS_PROXY / NO_PROXY (${code}: ${errors[0]?.message ?? ''})`)
  }
  return network(`${code}: ${errors[0]?.message ?? String(cause)}`)
}
