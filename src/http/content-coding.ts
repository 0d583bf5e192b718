// Bodies as real servers and clients send them: decoded from their Content-Encoding before a rule judges them.
// gzip (and x-gzip), deflate (zlib-wrapped, or raw as some servers send it), br and zstd, and stacked codings
// (`Content-Encoding: gzip, br` was gzipped first, so it is decoded br first). zstd comes from zlib where the Node
// version has it (22.15+) and from fzstd, a maintained pure-JavaScript decoder, on Node 20. Decoding is bounded
// (DEFAULTS.maxDecodedBytes): a bomb, a coding this module does not know, or bytes that do not decode leave the
// body unjudged with a note, never a violation, since the client that asked for the coding decoded it.
import * as zlib from 'node:zlib'
import { Decompress as ZstdStream } from 'fzstd'
import { DEFAULTS } from '../config/config.ts'

export type Decoded = { ok: true; bytes: Buffer } | { ok: false; note: string }

/** The codings of a Content-Encoding value, in the order they were applied; `identity` dropped. */
export function codingsOf(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity')
}

class TooLarge extends Error {}

type ZlibSync = (buffer: Buffer, options: zlib.ZlibOptions | zlib.BrotliOptions) => Buffer
const zstdSync = (zlib as unknown as { zstdDecompressSync?: ZlibSync }).zstdDecompressSync

function zstdDecode(bytes: Buffer, max: number): Buffer {
  if (zstdSync) return zstdSync(bytes, { maxOutputLength: max })
  const parts: Uint8Array[] = []
  let size = 0
  const stream = new ZstdStream((chunk) => {
    size += chunk.length
    if (size > max) throw new TooLarge()
    parts.push(chunk)
  })
  stream.push(bytes, true)
  return Buffer.concat(parts, size)
}

function deflateDecode(bytes: Buffer, max: number): Buffer {
  try {
    return zlib.inflateSync(bytes, { maxOutputLength: max })
  } catch (error) {
    if (isTooLarge(error)) throw error
    // RFC 9110 deflate is zlib-wrapped, but servers long sent raw deflate: browsers accept both.
    return zlib.inflateRawSync(bytes, { maxOutputLength: max })
  }
}

const DECODERS: Record<string, (bytes: Buffer, max: number) => Buffer> = {
  gzip: (b, max) => zlib.gunzipSync(b, { maxOutputLength: max }),
  'x-gzip': (b, max) => zlib.gunzipSync(b, { maxOutputLength: max }),
  deflate: deflateDecode,
  br: (b, max) => zlib.brotliDecompressSync(b, { maxOutputLength: max }),
  zstd: zstdDecode,
}

function isTooLarge(error: unknown): boolean {
  return error instanceof TooLarge || (error as NodeJS.ErrnoException)?.code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError
}

/** The body decoded from `contentEncoding`, or why it is left unjudged. */
export function decodeBody(bytes: Buffer, contentEncoding: string | undefined, max: number = DEFAULTS.maxDecodedBytes): Decoded {
  const codings = codingsOf(contentEncoding)
  let out = bytes
  for (const coding of [...codings].reverse()) {
    const decode = DECODERS[coding]
    if (!decode) return { ok: false, note: `content-coding ${JSON.stringify(coding)} is not one the verifier decodes: body not judged` }
    try {
      out = decode(out, max)
    } catch (error) {
      if (isTooLarge(error)) return { ok: false, note: `the ${coding} body decodes to more than ${max} bytes: body not judged` }
      return { ok: false, note: `the body does not decode as ${coding} (${(error as Error).message}): body not judged` }
    }
  }
  return { ok: true, bytes: out }
}
