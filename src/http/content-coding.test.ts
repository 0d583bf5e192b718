import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { codingsOf, decodeBody } from './content-coding.ts'
import { ZSTD_HELLO } from './test-fixtures/zstd.ts'

const body = Buffer.from(JSON.stringify({ data: [{ id: 'a' }], nextCursor: '' }))

describe('decodeBody', () => {
  it.each([
    ['gzip', gzipSync(body)],
    ['x-gzip', gzipSync(body)],
    ['deflate', deflateSync(body)],
    ['deflate', deflateRawSync(body)],
    ['br', brotliCompressSync(body)],
    ['identity', body],
    ['', body],
  ])('decodes %s', (coding, bytes) => {
    expect(decodeBody(bytes, coding)).toEqual({ ok: true, bytes: body })
  })

  it('decodes zstd (the frame Chromium and CDNs send)', () => {
    const decoded = decodeBody(ZSTD_HELLO.bytes, 'zstd')
    expect(decoded.ok && decoded.bytes.toString('utf8')).toBe(ZSTD_HELLO.text)
  })

  it('decodes stacked codings in reverse order of application', () => {
    expect(codingsOf('gzip, br')).toEqual(['gzip', 'br'])
    expect(decodeBody(brotliCompressSync(gzipSync(body)), 'gzip, br')).toEqual({ ok: true, bytes: body })
  })

  it('leaves a bomb unjudged past the bound, with a note', () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024))
    const decoded = decodeBody(bomb, 'gzip', 1024 * 1024)
    expect(decoded).toEqual({ ok: false, note: expect.stringMatching(/decodes to more than 1048576 bytes/) })
  })

  it('leaves an unknown coding or bytes that do not decode unjudged, with a note', () => {
    expect(decodeBody(body, 'compress')).toEqual({ ok: false, note: expect.stringMatching(/"compress" is not one the verifier decodes/) })
    expect(decodeBody(body, 'gzip')).toEqual({ ok: false, note: expect.stringMatching(/does not decode as gzip/) })
  })
})

describe('decodeBody on a zstd bomb', () => {
  it('stops at the bound', async () => {
    const { ZSTD_BOMB } = await import('./test-fixtures/zstd.ts')
    expect(decodeBody(ZSTD_BOMB, 'zstd', 1024 * 1024)).toEqual({ ok: false, note: expect.stringMatching(/zstd body decodes to more than/) })
  })
})
