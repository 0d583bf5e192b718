// A HAR in a .zip archive, as Playwright writes one when recordHar's path ends in .zip: the HAR itself (`har.har`)
// beside the bodies it attached as files. The archive is streamed (fflate's Unzip, a maintained pure-JavaScript
// inflater) and only the .har member is inflated, chunk by chunk, into the same entry scanner a plain HAR goes
// through: memory stays flat whatever the archive's size. Attached bodies stay unread (the entries then say their
// body was left out, and it is not judged).
import { createReadStream } from 'node:fs'
import { Unzip, UnzipInflate, UnzipPassThrough } from 'fflate'

export class HarZipError extends Error {}

/** Whether the first bytes are a zip's local file header (`PK\x03\x04`). */
export function isZip(head: Buffer): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04
}

/** The text of the first `.har` member of the archive at `file`, as a stream of chunks. */
export async function* harMemberChunks(file: string): AsyncGenerator<Buffer> {
  const out: Buffer[] = []
  let found = false
  let failure: Error | undefined
  const unzip = new Unzip((member) => {
    if (found || !member.name.toLowerCase().endsWith('.har')) return
    found = true
    member.ondata = (error, chunk) => {
      if (error) failure = error
      else if (chunk.length > 0) out.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
    }
    member.start()
  })
  unzip.register(UnzipInflate)
  unzip.register(UnzipPassThrough)
  const input = createReadStream(file)
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      unzip.push(chunk)
      if (failure) throw new HarZipError(`the .har member does not inflate (${failure.message})`)
      while (out.length > 0) yield out.shift()!
    }
    unzip.push(new Uint8Array(0), true)
    if (failure) throw new HarZipError(`the .har member does not inflate (${failure.message})`)
    while (out.length > 0) yield out.shift()!
  } finally {
    input.destroy()
  }
  if (!found) throw new HarZipError('the archive holds no .har file (unzip it and pass the .har inside)')
}
