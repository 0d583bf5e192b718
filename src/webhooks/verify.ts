// Verifies one webhook delivery as §6.3–§6.6 describe (Standard Webhooks), with stable reason codes, and
// diagnoses the usual implementer mistakes behind a failed signature.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { CrmConfError } from '../errors.ts'
import { validate } from '../schemas/registry.ts'

/** §6.6, §8: a timestamp further than this from now is refused. */
export const TIMESTAMP_TOLERANCE_S = 300
/** Largest body accepted. The spec names no maximum (§8); Standard Webhooks advises under 20 kB. */
export const MAX_BODY_BYTES = 1024 * 1024

export type VerificationFailure =
  | 'missing_header'
  | 'malformed_header'
  | 'bad_signature'
  | 'stale_timestamp'
  | 'future_timestamp'
  | 'timestamp_not_seconds'
  | 'not_json'
  | 'bad_shape'
  | 'too_large'

/** §6.3. Extra properties are allowed; `object` and `changes` have no shown inner shape. */
export interface WebhookEvent {
  type: string
  timestamp: string
  data: { id: string; entityType: string; object: Record<string, unknown>; changes: Record<string, unknown>; [more: string]: unknown }
  [more: string]: unknown
}

export interface DeliveryInput {
  /** The endpoint's signing secret: `whsec_` followed by base64 (§6.1). */
  secret: string
  /** The request headers; names match case-insensitively; a header sent several times is an array. */
  headers: Record<string, string | string[] | undefined>
  /** The body exactly as received. */
  rawBody: Uint8Array | string
  /** Default: the current time. */
  now?: Date
  /** Default MAX_BODY_BYTES. */
  maxBodyBytes?: number
}

export type Failure = { ok: false; reason: VerificationFailure; detail: string; webhookId?: string; timestamp?: number }

/** The Standard Webhooks layer alone (§6.4–§6.6): headers, timestamp, signature; the body is not interpreted. */
export type SignatureResult = { ok: true; webhookId: string; timestamp: number; body: string } | Failure

export type VerifyResult = { ok: true; event: WebhookEvent; webhookId: string; timestamp: number } | Failure

const HEADER_NAMES = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

function headerValues(headers: DeliveryInput['headers']): Map<string, string[]> {
  const values = new Map<string, string[]>()
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    const key = name.toLowerCase()
    values.set(key, [...(values.get(key) ?? []), ...(Array.isArray(value) ? value : [value])])
  }
  return values
}

function bytesOf(rawBody: Uint8Array | string): Buffer {
  return typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength)
}

/** The standardwebhooks signer for the secret; a secret it cannot use is a configuration error, not a server fault. */
function signerFor(secret: string): Webhook {
  try {
    return new Webhook(secret)
  } catch (error) {
    throw new CrmConfError('CRMCONF_CONFIG_INVALID', `The webhook secret is not usable: ${(error as Error).message} (§6.1: whsec_ followed by base64)`, {
      cause: error,
    })
  }
}

/** `<version>,<signature>` entries of webhook-signature (§6.5); anything else is kept as `version: undefined`. */
function signatureEntries(header: string): { version?: string; signature: string }[] {
  return header
    .split(' ')
    .filter((e) => e !== '')
    .map((e) => {
      const comma = e.indexOf(',')
      return comma > 0 && comma < e.length - 1 ? { version: e.slice(0, comma), signature: e.slice(comma + 1) } : { signature: e }
    })
}

/** The unit a timestamp was written in when it is not seconds: it reads as now in ms, µs or ns, or is past year 5000. */
function subSecondUnit(value: number, nowS: number): string | undefined {
  for (const [unit, factor] of [
    ['milliseconds', 1e3],
    ['microseconds', 1e6],
    ['nanoseconds', 1e9],
  ] as const) {
    if (Math.abs(value / factor - nowS) <= TIMESTAMP_TOLERANCE_S) return unit
  }
  return value >= 1e11 ? 'a sub-second unit' : undefined
}

function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  // A length mismatch reveals only the length, which an HMAC-SHA256 signature makes public anyway.
  if (x.length !== y.length) return false
  return timingSafeEqual(x, y)
}

/** Headers, timestamp and signature (§6.4–§6.6), HMAC by standardwebhooks over the raw body. */
export function verifySignature(input: DeliveryInput): SignatureResult {
  const maxBodyBytes = input.maxBodyBytes ?? MAX_BODY_BYTES
  const bytes = bytesOf(input.rawBody)
  if (bytes.length > maxBodyBytes) return { ok: false, reason: 'too_large', detail: `body is ${bytes.length} bytes, over the limit of ${maxBodyBytes}` }

  const values = headerValues(input.headers)
  const missing = HEADER_NAMES.filter((n) => (values.get(n) ?? []).every((v) => v.trim() === ''))
  if (missing.length > 0) return { ok: false, reason: 'missing_header', detail: `${missing.join(', ')} absent or empty (§6.4)` }
  const repeated = HEADER_NAMES.filter((n) => values.get(n)!.length > 1)
  if (repeated.length > 0) return { ok: false, reason: 'malformed_header', detail: `${repeated.join(', ')} sent more than once; §6.4 defines one value each` }
  const [webhookId, timestampText, signatureHeader] = HEADER_NAMES.map((n) => values.get(n)![0].trim())

  if (/^\d+\.\d+$/.test(timestampText)) {
    return { ok: false, reason: 'timestamp_not_seconds', detail: `webhook-timestamp ${timestampText} has a fraction; §6.4: integer Unix seconds`, webhookId }
  }
  if (!/^(0|[1-9]\d*)$/.test(timestampText)) {
    return { ok: false, reason: 'malformed_header', detail: `webhook-timestamp ${JSON.stringify(timestampText)} is not integer Unix seconds (§6.4)`, webhookId }
  }
  const nowS = Math.floor((input.now ?? new Date()).getTime() / 1000)
  const asNumber = Number(timestampText)
  const unit = subSecondUnit(asNumber, nowS)
  if (unit !== undefined) {
    return { ok: false, reason: 'timestamp_not_seconds', detail: `webhook-timestamp ${timestampText} is in ${unit}; §6.4: Unix seconds`, webhookId }
  }
  if (!Number.isSafeInteger(asNumber)) return { ok: false, reason: 'malformed_header', detail: `webhook-timestamp ${timestampText} is out of range`, webhookId }
  const timestamp = asNumber
  const skew = timestamp - nowS
  if (skew < -TIMESTAMP_TOLERANCE_S) {
    return {
      ok: false,
      reason: 'stale_timestamp',
      detail: `webhook-timestamp is ${-skew} s in the past; §6.6 allows ${TIMESTAMP_TOLERANCE_S}`,
      webhookId,
      timestamp,
    }
  }
  if (skew > TIMESTAMP_TOLERANCE_S) {
    return {
      ok: false,
      reason: 'future_timestamp',
      detail: `webhook-timestamp is ${skew} s in the future; §6.6 allows ${TIMESTAMP_TOLERANCE_S}`,
      webhookId,
      timestamp,
    }
  }

  const entries = signatureEntries(signatureHeader).filter((e) => e.version !== undefined)
  if (entries.length === 0) {
    return { ok: false, reason: 'malformed_header', detail: 'webhook-signature has no `<version>,<signature>` entry (§6.5)', webhookId, timestamp }
  }

  let body: string
  try {
    // standardwebhooks signs text; valid UTF-8 round-trips byte for byte, so the HMAC still covers the raw bytes.
    body = utf8.decode(bytes)
  } catch {
    return { ok: false, reason: 'not_json', detail: 'body is not valid UTF-8 (JSON text is UTF-8, RFC 8259 §8.1)', webhookId, timestamp }
  }

  // sign(), not verify(): verify() reads the clock itself, and `now` must apply to the timestamp check above.
  const expected = signerFor(input.secret)
    .sign(webhookId, new Date(timestamp * 1000), body)
    .slice('v1,'.length)
  const v1 = entries.filter((e) => e.version === 'v1')
  if (!v1.some((e) => constantTimeEqual(e.signature, expected))) {
    const versions = [...new Set(entries.map((e) => e.version))].join(', ')
    const detail =
      v1.length === 0
        ? `webhook-signature has no v1 entry (versions sent: ${versions}); §6.5 signs with HMAC-SHA256 (Standard Webhooks v1)`
        : `none of the ${v1.length} v1 signature(s) is the HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed on the base64-decoded secret (§6.5)`
    return { ok: false, reason: 'bad_signature', detail, webhookId, timestamp }
  }
  return { ok: true, webhookId, timestamp, body }
}

/** §6.3 rules beyond the `webhook-event` schema. */
function extraShapeProblems(event: WebhookEvent): string[] {
  return event.type.startsWith('case.') && event.data.entityType !== 'case'
    ? [`data.entityType is ${JSON.stringify(event.data.entityType)}, §6.3: "case" for a case event`]
    : []
}

/** verifySignature, then the body: JSON, and the §6.3 shape (schemas/webhook-event.json). */
export function verifyDelivery(input: DeliveryInput): VerifyResult {
  const signed = verifySignature(input)
  if (!signed.ok) return signed
  const { webhookId, timestamp, body } = signed
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch (error) {
    return { ok: false, reason: 'not_json', detail: `body is not JSON: ${(error as Error).message}`, webhookId, timestamp }
  }
  const issues = validate('webhook-event', parsed).map((i) => `${i.path || 'body'} ${i.message}`)
  const problems = issues.length > 0 ? issues : extraShapeProblems(parsed as WebhookEvent)
  if (problems.length > 0) return { ok: false, reason: 'bad_shape', detail: `${problems.join('; ')} (§6.3)`, webhookId, timestamp }
  return { ok: true, event: parsed as WebhookEvent, webhookId, timestamp }
}

export type ImplementerMistake =
  | 'key_is_whsec_string'
  | 'key_is_undecoded_base64'
  | 'hex_signature'
  | 'base64url_signature'
  | 'missing_version_prefix'
  | 'wrong_version_label'
  | 'signed_reserialized_body'
  | 'timestamp_milliseconds'
  | 'timestamp_fractional'
  | 'wrong_header_names'

export interface Diagnosis {
  mistake: ImplementerMistake
  message: string
}

const MISTAKE_MESSAGES: Record<ImplementerMistake, string> = {
  key_is_whsec_string: 'the signature is keyed on the text of the whole `whsec_…` string; §6.5: the key is the base64-decoded secret after removing `whsec_`',
  key_is_undecoded_base64: 'the signature is keyed on the base64 text after `whsec_` without decoding it; §6.5: base64-decode it first',
  hex_signature: 'the signature is hex; §6.5: base64',
  base64url_signature: 'the signature is base64url; §6.5: standard base64 (with + / and = padding)',
  missing_version_prefix: 'the signature entry has no `v1,` prefix; §6.5: `<version>,<signature>`',
  wrong_version_label: 'the signature is right but labelled with another version than `v1,` (e.g. `v1=` or `v2,`); §6.5: `v1,<signature>`',
  signed_reserialized_body: 'the signature covers a re-serialised JSON body, not the bytes sent; §6.5 signs the raw body exactly as sent',
  timestamp_milliseconds: 'webhook-timestamp is in milliseconds (or finer); §6.4: Unix seconds',
  timestamp_fractional: 'webhook-timestamp has a fraction; §6.4: integer Unix seconds',
  wrong_header_names:
    'the Standard Webhooks headers are missing but a look-alike is present (svix-*, x-webhook-*); §6.4: webhook-id, webhook-timestamp, webhook-signature',
}

/** Header names a sender may have used instead of §6.4's, in the order they are tried. */
const LOOK_ALIKE_NAMES = [
  ['svix-id', 'svix-timestamp', 'svix-signature'],
  ['x-webhook-id', 'x-webhook-timestamp', 'x-webhook-signature'],
] as const

export interface SignatureExamination {
  /**
   * A signature entry is an HMAC-SHA256 keyed on the endpoint's secret over this very request, made as §6.5 says
   * or with one of the usual mistakes (MISTAKE_MESSAGES): only a holder of the secret can have sent it, whatever
   * else is wrong with it (its timestamp, its body, its header names).
   */
  authentic: boolean
  /** The webhook-id the signature covers (from a look-alike header when the §6.4 one is missing). */
  webhookId?: string
  /** The webhook-timestamp text it covers, likewise. */
  timestampText?: string
  mistakes: Diagnosis[]
}

/**
 * Whether the request was signed with the endpoint's secret (as sent, or with a usual mistake), and which usual
 * implementer mistakes it matches: turns a bare "bad signature" into a fix, and tells the server under test
 * (which holds the secret) from a stranger posting to the sink (who does not).
 */
export function examineSignature(input: DeliveryInput): SignatureExamination {
  const found = new Set<ImplementerMistake>()
  const values = headerValues(input.headers)
  const first = (name: string): string | undefined => values.get(name)?.[0]?.trim() || undefined
  let names: readonly string[] = HEADER_NAMES
  if (HEADER_NAMES.some((n) => first(n) === undefined) && [...values.keys()].some((k) => /^(svix|x-webhook)-(id|timestamp|signature)$/.test(k))) {
    found.add('wrong_header_names')
    names = LOOK_ALIKE_NAMES.find((set) => set.every((n) => first(n) !== undefined)) ?? HEADER_NAMES
  }
  const [webhookId, timestampText, signatureHeader] = names.map(first)

  const nowS = Math.floor((input.now ?? new Date()).getTime() / 1000)
  if (timestampText !== undefined && /^\d+$/.test(timestampText) && subSecondUnit(Number(timestampText), nowS) !== undefined)
    found.add('timestamp_milliseconds')
  if (timestampText !== undefined && /^\d+\.\d+$/.test(timestampText)) found.add('timestamp_fractional')

  const bytes = bytesOf(input.rawBody)
  const maxBodyBytes = input.maxBodyBytes ?? MAX_BODY_BYTES
  let authentic = false
  if (webhookId !== undefined && timestampText !== undefined && signatureHeader !== undefined && bytes.length <= maxBodyBytes) {
    const secret = input.secret
    const undecoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret
    const keys: [ImplementerMistake | undefined, Buffer][] = [
      [undefined, Buffer.from(undecoded, 'base64')],
      ['key_is_whsec_string', Buffer.from(secret, 'utf8')],
      ['key_is_undecoded_base64', Buffer.from(undecoded, 'utf8')],
    ]
    const bodies: [ImplementerMistake | undefined, Buffer][] = [[undefined, bytes]]
    try {
      const text = utf8.decode(bytes)
      const compact = JSON.stringify(JSON.parse(text))
      if (compact !== text) bodies.push(['signed_reserialized_body', Buffer.from(compact, 'utf8')])
    } catch {
      // not UTF-8 JSON: only the raw body can have been signed
    }
    const candidates = signatureHeader
      .split(' ')
      .filter((e) => e !== '')
      .map((e) => {
        const m = /^(v\d+[a-z]?)[,=](.+)$/.exec(e)
        if (m === null) return { label: 'missing_version_prefix' as const, value: e }
        return { label: m[0].startsWith('v1,') ? undefined : ('wrong_version_label' as const), value: m[2] }
      })
    // The signed content uses the timestamp text as sent: a millisecond or fractional timestamp is signed as such.
    const prefix = Buffer.from(`${webhookId}.${timestampText}.`, 'utf8')
    for (const [keyMistake, key] of keys) {
      for (const [bodyMistake, signedBody] of bodies) {
        const raw = createHmac('sha256', key).update(prefix).update(signedBody).digest()
        const encodings: [ImplementerMistake | undefined, string][] = [
          [undefined, raw.toString('base64')],
          ['hex_signature', raw.toString('hex')],
          ['base64url_signature', raw.toString('base64url')],
        ]
        for (const { label, value } of candidates) {
          for (const [encodingMistake, encoded] of encodings) {
            if (!constantTimeEqual(encodingMistake === 'hex_signature' ? value.toLowerCase() : value, encoded)) continue
            authentic = true
            for (const m of [keyMistake, bodyMistake, encodingMistake, label]) if (m !== undefined) found.add(m)
          }
        }
      }
    }
  }
  return { authentic, webhookId, timestampText, mistakes: [...found].map((mistake) => ({ mistake, message: MISTAKE_MESSAGES[mistake] })) }
}

/** Which usual implementer mistakes a failed delivery matches (examineSignature's mistakes). */
export function diagnose(input: DeliveryInput): Diagnosis[] {
  return examineSignature(input).mistakes
}
