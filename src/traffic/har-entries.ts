// Finds the byte range of each item of a HAR's `log.entries` in a stream of chunks and yields its text, so
// each entry is parsed by the native JSON.parse: a general streaming tokenizer (stream-json) builds every
// value token by token, which made HAR reading five times slower than NDJSON. The scanner only tracks what
// it must: string boundaries (escapes included), nesting depth, and the keys on the way to `log.entries`.
// It works on bytes: every structural character of JSON is ASCII and no byte of a multi-byte UTF-8 sequence
// is, so an entry is decoded only once it is complete, whatever chunk boundaries split. Memory: the current
// entry's bytes, never the file.

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const COLON = 0x3a
const COMMA = 0x2c

export class HarStructureError extends Error {}

/**
 * A string value of an entry longer than this (a body: base64 of a few MiB is the most a judged body can be) is
 * not kept: its text is replaced by OMITTED_PREFIX and its length, so a 264 MB HAR of one entry costs this much,
 * not five times the entry. The reader then treats that body as left out of the file.
 */
export const MAX_KEPT_STRING_BYTES = 8 * 1024 * 1024
/** An entry still larger than this once its long strings are set aside is not a HAR entry anyone wrote. */
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024
/** What an omitted string's text becomes: `crm-conformance:omitted <bytes>`. */
export const OMITTED_PREFIX = 'crm-conformance:omitted '

/** Yields the JSON text of each item of `log.entries`, in order. Throws HarStructureError on a cut or broken file. */
export async function* harEntryTexts(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  for await (const entry of harEntries(chunks)) yield entry.bytes.toString('utf8')
}

/**
 * An item of `log.entries`: its bytes (UTF-8 JSON), and where in them the value of its `request` member is (the last
 * one, as JSON.parse keeps the last of a repeated name), when that value is an object: what routing reads
 * (verify-traffic --jobs), parsed without the rest of the entry.
 */
export interface HarEntryBytes {
  bytes: Buffer
  request?: { start: number; end: number }
}

/** The bytes of `request`, as a key's text is compared (unescaped keys; one with an escape is decoded first). */
const REQUEST = 'request'

/** A key's text as JSON.parse reads it (undefined when its escapes are broken: the entry's parse says why). */
function keyText(raw: string): string | undefined {
  if (!raw.includes('\\')) return raw
  try {
    return JSON.parse(`"${raw}"`) as string
  } catch {
    return undefined
  }
}

/** Yields each item of `log.entries` as bytes, in order (see harEntryTexts). */
export async function* harEntries(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<HarEntryBytes> {
  const scanner = new EntryScanner()
  const found: HarEntryBytes[] = []
  for await (const raw of chunks) {
    if (scanner.done) continue
    let broken: unknown
    try {
      scanner.scan(typeof raw === 'string' ? Buffer.from(raw) : raw, found)
    } catch (error) {
      broken = error
    }
    // The entries before a break in the same chunk are read first, as they come before it.
    yield* found
    found.length = 0
    if (broken !== undefined) throw broken
  }
  scanner.end()
}

/**
 * The scanner's state between chunks. `scan` works on locals and stores them back once per chunk: the loop runs
 * once per structural byte of a file of tens of megabytes, and state kept in a generator's closure costs a memory
 * load and store at each use.
 */
class EntryScanner {
  // The containers open around the current position: '{' or '['.
  private readonly stack: number[] = []
  // The key under which each open object currently is, for the path to log.entries (depth ≤ 2 only).
  private readonly keys: string[] = []
  private inString = false
  private escaped = false
  // Whether the string being read is an object key, and its bytes (only collected near the root, and for the
  // entry's own members).
  private stringIsKey = false
  private keyParts: Buffer[] | undefined
  private entryKeyParts: Buffer[] | undefined
  private expectKey = false
  // Depth of the `entries` array once found (its items sit one level deeper), and the entry being captured.
  private entriesDepth = -1
  private entryParts: Buffer[] | undefined
  // Bytes of the current entry already in entryParts; where the current string's text starts among them; its
  // length so far; and whether it is being set aside (MAX_KEPT_STRING_BYTES).
  private entryPushed = 0
  private stringStart = -1
  private stringLength = 0
  private omitting = false
  private sawEntries = false
  done = false
  // The entry's own members: whether the key just read is `request`, and where its object value starts and ends.
  private requestNext = false
  private requestStart = -1
  private request: { start: number; end: number } | undefined

  scan(chunk: Buffer, found: HarEntryBytes[]): void {
    const { stack, keys } = this
    let { inString, escaped, stringIsKey, keyParts, entryKeyParts, expectKey, entriesDepth, entryParts, entryPushed } = this
    let { stringStart, stringLength, omitting, requestNext, requestStart, request } = this
    let entryStartInChunk = entryParts && !omitting ? 0 : -1
    let i = 0
    const n = chunk.length
    while (i < n) {
      if (inString) {
        if (escaped) {
          if (keyParts) keyParts.push(chunk.subarray(i, i + 1))
          if (entryKeyParts) entryKeyParts.push(chunk.subarray(i, i + 1))
          escaped = false
          i++
          stringLength++
          continue
        }
        // Jump to the closing quote: the next quote not escaped (an even run of backslashes before it, counted
        // back to where this scan began). Bodies kept as text (Chromium, Playwright) escape every quote of their
        // JSON: one native indexOf per quote, not a trip through this loop per escape.
        let quote = chunk.indexOf(QUOTE, i)
        while (quote !== -1) {
          let slashes = 0
          while (quote - 1 - slashes >= i && chunk[quote - 1 - slashes] === BACKSLASH) slashes++
          if (slashes % 2 === 0) break
          quote = chunk.indexOf(QUOTE, quote + 1)
        }
        stringLength += (quote === -1 ? n : quote) - i
        if (entryParts && stringStart !== -1 && !omitting && stringLength > MAX_KEPT_STRING_BYTES) {
          // The string's text is set aside: what the entry holds so far is kept up to the string's start.
          entryParts.push(chunk.subarray(entryStartInChunk, i))
          const kept = Buffer.concat(entryParts).subarray(0, stringStart)
          entryParts = [Buffer.from(kept)]
          entryPushed = kept.length
          entryStartInChunk = -1
          omitting = true
        }
        if (quote === -1) {
          // The chunk ends inside the string: an odd run of backslashes at its end escapes the next chunk's first byte.
          let slashes = 0
          while (n - 1 - slashes >= i && chunk[n - 1 - slashes] === BACKSLASH) slashes++
          escaped = slashes % 2 === 1
          if (keyParts) keyParts.push(chunk.subarray(i))
          if (entryKeyParts) entryKeyParts.push(chunk.subarray(i))
          i = n
          continue
        }
        if (keyParts) {
          keyParts.push(chunk.subarray(i, quote))
          keys[stack.length - 1] = Buffer.concat(keyParts).toString('utf8')
          keyParts = undefined
        }
        if (entryKeyParts) {
          entryKeyParts.push(chunk.subarray(i, quote))
          requestNext = keyText(Buffer.concat(entryKeyParts).toString('utf8')) === REQUEST
          entryKeyParts = undefined
        }
        if (omitting) {
          // The string's text is replaced by its marker; the entry is collected again from the closing quote.
          const marker = Buffer.from(`${OMITTED_PREFIX}${stringLength}`)
          entryParts!.push(marker)
          entryPushed += marker.length
          entryStartInChunk = quote
          omitting = false
        }
        stringStart = -1
        inString = false
        i = quote + 1
        continue
      }
      const c = chunk[i]!
      if (c === QUOTE) {
        if (stack.length === entriesDepth) throw new HarStructureError('an item of log.entries is not an object')
        inString = true
        stringIsKey = expectKey
        expectKey = false
        stringLength = 0
        if (entryParts && !stringIsKey) stringStart = entryPushed + (i + 1 - entryStartInChunk)
        if (stringIsKey && stack.length <= 2 && !entryParts) keyParts = []
        if (entryParts && stack.length === entriesDepth + 1) {
          if (stringIsKey) entryKeyParts = []
          // `request` names a string: not an object to route by.
          else if (requestNext) ((requestNext = false), (request = undefined))
        }
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (stack.length === entriesDepth && !entryParts) {
          entryParts = []
          entryPushed = 0
          entryStartInChunk = i
          request = undefined
          requestNext = false
        } else if (requestNext && stack.length === entriesDepth + 1) {
          requestNext = false
          request = undefined
          if (c === OPEN_OBJECT) requestStart = entryPushed + i - entryStartInChunk
        }
        stack.push(c)
        expectKey = c === OPEN_OBJECT
        if (
          c === OPEN_ARRAY &&
          stack.length === 3 &&
          stack[0] === OPEN_OBJECT &&
          stack[1] === OPEN_OBJECT &&
          keys[0] === 'log' &&
          keys[1] === 'entries' &&
          !this.sawEntries
        ) {
          entriesDepth = stack.length
          this.sawEntries = true
        }
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        const open = stack.pop()
        if (open === undefined || (open === OPEN_OBJECT) !== (c === CLOSE_OBJECT)) throw new HarStructureError(`unexpected '${String.fromCharCode(c)}'`)
        if (stack.length < keys.length) keys.length = stack.length
        if (requestStart !== -1 && stack.length === entriesDepth + 1) {
          request = { start: requestStart, end: entryPushed + i + 1 - entryStartInChunk }
          requestStart = -1
        }
        if (entryParts && stack.length === entriesDepth) {
          entryParts.push(chunk.subarray(entryStartInChunk, i + 1))
          // `request` named a scalar, the entry's last member.
          if (requestNext) ((requestNext = false), (request = undefined))
          const bytes = Buffer.concat(entryParts)
          entryParts = undefined
          entryStartInChunk = -1
          found.push(request ? { bytes, request } : { bytes })
        } else if (stack.length === entriesDepth - 1 && entriesDepth !== -1) {
          // The end of log.entries: nothing after it is read.
          entriesDepth = -1
          this.done = true
          break
        }
        expectKey = false
      } else if (c === COMMA) {
        expectKey = stack[stack.length - 1] === OPEN_OBJECT
        // `request` named a number, true, false or null.
        if (requestNext && stack.length === entriesDepth + 1) ((requestNext = false), (request = undefined))
      } else if (c === COLON) {
        expectKey = false
      } else if (stack.length === entriesDepth && c > 0x20 && !entryParts) {
        // A scalar where an entry object belongs.
        throw new HarStructureError('an item of log.entries is not an object')
      }
      i++
    }
    if (entryParts && entryStartInChunk !== -1) {
      entryParts.push(chunk.subarray(entryStartInChunk))
      entryPushed += n - entryStartInChunk
      if (entryPushed > MAX_ENTRY_BYTES) throw new HarStructureError(`an entry is over ${MAX_ENTRY_BYTES} bytes even without its bodies`)
    }
    Object.assign(this, { inString, escaped, stringIsKey, keyParts, entryKeyParts, expectKey, entriesDepth, entryParts, entryPushed })
    Object.assign(this, { stringStart, stringLength, omitting, requestNext, requestStart, request })
  }

  /** After the last chunk: the file must have ended after log.entries. */
  end(): void {
    if (!this.done && (this.stack.length > 0 || this.inString)) throw new HarStructureError('the file ends inside a JSON value')
    if (!this.sawEntries) throw new HarStructureError('no log.entries array')
  }
}
