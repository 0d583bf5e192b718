// Masks every secret of observed traffic before a TrafficExchange exists (types.ts): the configured keys and
// webhook secret in any form (src/http/redact.ts Redactor), and, by name, every header, query parameter, cookie
// and JSON field whose name says it is a credential (src/http/credential-names.ts), with that value's echoes
// elsewhere in the same exchange. Traffic carries keys the suite never configured, so the key that sent a request
// is remembered only as a digest, to tell one client's requests from another's (keyRole `key#N`).
import { createHash } from 'node:crypto'
import { KEY_VARIABLES, type KeyRole, type ResolvedConfig } from '../config/config.ts'
import { Redactor, type Learn, type NamedSecret } from '../http/redact.ts'
import type { TrafficExchange } from './types.ts'

/** A value masked by its name is looked for elsewhere in its exchange when at least this long (shorter ones are words). */
const MIN_ECHOED = 8
/** Redactors of learned values kept for reuse; past it, the cache starts again. */
const MAX_ECHO_REDACTORS = 256
/** Characters every echo form (URL, form, JSON, HTML) writes as they are. */
const PLAIN = /^[A-Za-z0-9_-]+$/

/** Distinct unknown keys remembered by digest; past it, further unknown keys share one role. */
const MAX_UNKNOWN_KEYS = 10_000

export interface TrafficSecrets {
  secrets: NamedSecret[]
  /** For the report writer's last check (src/report/write.ts `secrets`): variable name → value. */
  byName: Record<string, string>
}

/** The secrets of the configuration (CRM_API_KEY*, CRM_WEBHOOK_SECRET, CRM_EXTRA_HEADERS values) with their variable names. */
export function trafficSecrets(config: Pick<ResolvedConfig, 'keys' | 'webhookSecret' | 'extraHeaders'>): TrafficSecrets {
  const secrets: NamedSecret[] = []
  for (const [role, value] of Object.entries(config.keys) as [KeyRole, string | undefined][]) if (value) secrets.push({ name: KEY_VARIABLES[role], value })
  if (config.webhookSecret) secrets.push({ name: 'CRM_WEBHOOK_SECRET', value: config.webhookSecret })
  for (const value of Object.values(config.extraHeaders ?? {})) if (value) secrets.push({ name: 'CRM_EXTRA_HEADERS', value })
  return { secrets, byName: Object.fromEntries(secrets.map((s) => [s.name, s.value])) }
}

const ROLE_OF_VARIABLE = new Map(Object.entries(KEY_VARIABLES).map(([role, variable]) => [variable, role]))

export class TrafficRedactor {
  private readonly redactor: Redactor
  private readonly unknownKeys = new Map<string, string>()
  private readonly echoRedactors = new Map<string, Redactor>()
  /** The last key keyRoleOf named (its role never changes once given). */
  private lastKey: { authorization: string; role: string | undefined } | undefined

  constructor(secrets: readonly NamedSecret[] = []) {
    this.redactor = new Redactor([...secrets], { byName: true })
  }

  /** The role of the key that sent `authorization` (raw): a configured key's role, or `key#N` for another key. */
  private roleOf(authorization: string | undefined, masked: string | undefined): string | undefined {
    if (!authorization || !masked) return undefined
    // A file this tool recorded (NDJSON, or a HAR written from it) names the key's variable in place of the key.
    const named = /<redacted:(CRM_API_KEY[A-Z_]*)>/.exec(masked)?.[1] ?? /^\s*bearer\s+<redacted:(CRM_API_KEY[A-Z_]*)>\s*$/i.exec(authorization)?.[1]
    if (named && ROLE_OF_VARIABLE.has(named)) return ROLE_OF_VARIABLE.get(named)
    const digest = createHash('sha256').update(authorization.trim()).digest('base64url')
    let role = this.unknownKeys.get(digest)
    if (!role) {
      role = this.unknownKeys.size < MAX_UNKNOWN_KEYS ? `key#${this.unknownKeys.size + 1}` : 'key#other'
      if (this.unknownKeys.size < MAX_UNKNOWN_KEYS) this.unknownKeys.set(digest, role)
    }
    return role
  }

  /** Headers masked by value and by name (an Authorization keeps its scheme, which traffic.client.key names). */
  headers(headers: Record<string, string>, learn?: Learn): Record<string, string> {
    return this.redactor.headers(headers, learn)
  }

  /**
   * The role of the key that sent the exchange (as exchange() sets it), without masking the rest: judging in
   * partitions (partition.ts) routes by it, and `key#N` numbers keys in traffic order, so it is read for every
   * exchange, in order, wherever the exchange is then judged.
   */
  keyRoleOf(exchange: TrafficExchange): string | undefined {
    const authorization = exchange.request.headers.authorization
    if (exchange.keyRole !== undefined || authorization === undefined) return exchange.keyRole
    // One client's key sends run after run of exchanges: the last one's role, without masking and hashing it again.
    if (this.lastKey?.authorization === authorization) return this.lastKey.role
    const role = this.roleOf(authorization, this.headers({ authorization }).authorization)
    this.lastKey = { authorization, role }
    return role
  }

  /** The exchange with every secret masked and its keyRole set; the input is not changed. */
  exchange(exchange: TrafficExchange): TrafficExchange {
    const learned = new Set<string>()
    const learn: Learn = (value) => {
      if (value.length >= MIN_ECHOED && !value.startsWith('<redacted')) learned.add(value)
    }
    const authorization = exchange.request.headers.authorization
    // The key of an answered request is looked for in error answers alone ("invalid key crm_…"): a record does not echo
    // the caller's key, and looking through every page of every list for it would double what masking costs.
    const learnKey = !exchange.response || exchange.response.status >= 400 ? learn : undefined
    const requestHeaders = Object.fromEntries(
      Object.entries(exchange.request.headers).map(([name, raw]) => [
        name,
        this.redactor.headers({ [name]: raw }, name === 'authorization' ? learnKey : learn)[name]!,
      ]),
    )
    const keyRole = exchange.keyRole ?? this.roleOf(authorization, requestHeaders.authorization)
    const { body: requestBody, ...request } = exchange.request
    const out: TrafficExchange = {
      ...exchange,
      request: {
        ...request,
        url: this.redactor.url(request.url, learn),
        headers: requestHeaders,
        ...(requestBody !== undefined ? { body: this.redactor.value(requestBody, learn) } : {}),
      },
      ...(keyRole ? { keyRole } : {}),
    }
    if (exchange.response) {
      const { body, ...response } = exchange.response
      out.response = { ...response, headers: this.headers(response.headers, learn), ...(body !== undefined ? { body: this.redactor.value(body, learn) } : {}) }
    }
    if (learned.size === 0) return out
    // A credential masked by its name in one place, echoed under another name (a token header repeated in an error
    // message): masked there too, in every form the Redactor knows.
    const values = [...learned]
    // A value of URL-safe characters is written the same in every form: when the exchange's text does not hold it,
    // nothing echoes it (the common case: a bearer token that the answer does not repeat), and nothing is walked again.
    if (values.every((v) => PLAIN.test(v))) {
      const text = JSON.stringify([out.request.url, out.request.headers, out.request.body, out.response?.headers, out.response?.body]) ?? ''
      if (!values.some((v) => text.includes(v))) return out
    }
    const echoes = this.echoRedactor(values)
    const again = <T extends { headers: Record<string, string>; body?: unknown }>(part: T): T => ({
      ...part,
      headers: echoes.value(part.headers),
      ...(part.body !== undefined ? { body: echoes.value(part.body) } : {}),
    })
    return { ...out, request: { ...again(out.request), url: echoes.string(out.request.url) }, ...(out.response ? { response: again(out.response) } : {}) }
  }

  /** A Redactor of these values, kept for the next exchanges that carry the same ones (one client's token, again and again). */
  private echoRedactor(values: string[]): Redactor {
    const key = values.join('\u0000')
    let echoes = this.echoRedactors.get(key)
    if (!echoes) {
      echoes = new Redactor(values.map((value) => ({ name: 'credential', value })))
      if (this.echoRedactors.size >= MAX_ECHO_REDACTORS) this.echoRedactors.clear()
      this.echoRedactors.set(key, echoes)
    }
    return echoes
  }
}
