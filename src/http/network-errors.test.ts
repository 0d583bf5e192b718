import { describe, expect, it } from 'vitest'
import { describeNetworkError } from './network-errors.ts'

const error = (code: string, message = 'x', cause?: unknown) => Object.assign(new Error(message), { code, cause })

describe('network and TLS errors in words', () => {
  const url = 'https://crm.example:8443/v1/me'
  it.each([
    [
      error('ERR_SSL_WRONG_VERSION_NUMBER', '80BC:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/ssl3_record.c:350:\n'),
      /^crm\.example:8443 does not speak TLS on that port: use http:\/\/ or the TLS port/,
    ],
    [
      error('ECONNRESET', 'Client network socket disconnected before secure TLS connection was established'),
      /closed the connection during the TLS handshake: if it does not speak TLS on that port, use http:\/\//,
    ],
    [error('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'), /set NODE_EXTRA_CA_CERTS to the CA's PEM file/],
    [error('UND_ERR_CONNECT', 'wrapped', error('SELF_SIGNED_CERT_IN_CHAIN')), /NODE_EXTRA_CA_CERTS/],
    [error('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), /NODE_EXTRA_CA_CERTS/],
    [error('ECONNREFUSED', 'connect ECONNREFUSED'), /refused the connection: nothing listens there/],
    [error('ENOTFOUND', 'getaddrinfo ENOTFOUND'), /does not resolve \(DNS\): check the host in CRM_BASE_URL/],
    [error('UND_ERR_SOCKET', 'other side closed'), /closed the connection before the answer was complete/],
    [error('ECONNRESET', 'read ECONNRESET'), /closed the connection/],
    [error('UND_ERR_HEADERS_OVERFLOW'), /response headers are larger than/],
    [error('UND_ERR_RES_CONTENT_LENGTH_MISMATCH'), /does not match its Content-Length/],
  ])('%s', (cause, expected) => {
    const described = describeNetworkError(cause, url, 1000)
    expect(described.code).toBe('CRMCONF_NETWORK')
    expect(described.message).toMatch(expected)
    expect(described.message).not.toMatch(/\n|deps\/openssl/)
  })

  it('timeouts name the variable that sets them', () => {
    expect(describeNetworkError(new DOMException('timed out', 'TimeoutError'), url, 1500)).toEqual({
      code: 'CRMCONF_TIMEOUT',
      message: 'no complete answer within 1500 ms (TimeoutError; CRM_REQUEST_TIMEOUT_MS)',
    })
    expect(describeNetworkError(error('UND_ERR_HEADERS_TIMEOUT'), url, 1500).code).toBe('CRMCONF_TIMEOUT')
  })
})
