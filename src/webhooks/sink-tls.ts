// The sink over HTTPS: a self-signed certificate made for the names a sender may use, and what a failed TLS
// handshake says (often the sender refusing that certificate), cleaned of OpenSSL's noise, with a hint.
import { isIP } from 'node:net'
import type { Socket } from 'node:net'
import { hostname, networkInterfaces } from 'node:os'
import { generate } from 'selfsigned'
import { SINK_DEFAULTS, type TlsFailure } from './sink-types.ts'

/** OpenSSL's "803C…:error:0A000418:SSL routines:ssl3_read_bytes:tlsv1 alert unknown ca:../deps/…" → "tlsv1 alert unknown ca". */
function cleanTlsMessage(message: string): string {
  const m = /SSL routines:[^:]*:([^:]+)/.exec(message)
  return m ? m[1] : message
}

function tlsHint(message: string): string | undefined {
  if (/unknown ca|bad certificate|certificate unknown|self.signed/i.test(message)) {
    return 'the sender refused the certificate: make it trust this one (see the fingerprint) or serve one it trusts with --cert/--key'
  }
  if (/http request|wrong version number/i.test(message)) return 'the sender spoke plain HTTP to this HTTPS sink'
  return undefined
}

/** Names a certificate for this host must carry: the host, loopback, and for a wildcard host this machine's names. */
function certificateNames(host: string): string[] {
  const names = new Set(['localhost', '127.0.0.1', '::1'])
  if (host === '0.0.0.0' || host === '::' || host === '') {
    names.add(hostname())
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.add(a.address)
  } else {
    names.add(host)
  }
  return [...names]
}

export async function selfSignedCertificate(host: string): Promise<{ cert: string; key: string }> {
  const names = certificateNames(host)
  const notBeforeDate = new Date(Date.now() - 24 * 3600 * 1000)
  const notAfterDate = new Date(Date.now() + SINK_DEFAULTS.selfSignedDays * 24 * 3600 * 1000)
  const commonName = isIP(host) || host === '' ? 'localhost' : host.slice(0, 64)
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: names.map((n) => (isIP(n) ? { type: 7 as const, ip: n } : { type: 2 as const, value: n })) },
    ],
  })
  return { cert: pems.cert, key: pems.private }
}

/**
 * The failure a `tlsClientError` reports, or undefined when there is nothing to record: the sink is closing, or a
 * bare connect-and-close probe hung up before sending a byte.
 */
export function tlsFailureOf(error: NodeJS.ErrnoException, socket: Socket, closing: boolean): TlsFailure | undefined {
  // The TCP bytes read tell a sender that hung up after its ClientHello from a bare connect-and-close probe.
  // Node exposes them only on the TLS socket's private _parent; without it, hang-ups go unrecorded.
  const tcp = (socket as Socket & { _parent?: Socket })._parent
  const tcpBytesRead = tcp?.bytesRead ?? 0
  const remoteAddress = tcp?.remoteAddress ?? socket.remoteAddress
  socket.destroy()
  const hungUp = error.code === 'ECONNRESET'
  if (closing || (hungUp && tcpBytesRead === 0)) return undefined
  const message = hungUp ? 'the sender hung up during the TLS handshake' : cleanTlsMessage(error.message)
  const hint = hungUp
    ? 'a sender that refuses the certificate often just hangs up: make it trust this one (see the fingerprint) or serve one it trusts with --cert/--key'
    : tlsHint(message)
  return { at: new Date().toISOString(), remoteAddress, code: error.code, message, ...(hint ? { hint } : {}) }
}
