// Masks every secret of observed traffic before a TrafficExchange exists (types.ts): the configured keys and
// webhook secret in any form (src/http/redact.ts Redactor), a bearer token no variable names, and the other
// credential headers. Traffic carries keys the suite never configured, so the key that sent a request is
// remembered only as a digest, to tell one client's requests from another's (keyRole `key#N`).
import { createHash } from 'node:crypto'
import { KEY_VARIABLES, type KeyRole, type ResolvedConfig } from '../config/config.ts'
import { Redactor, type NamedSecret } from '../http/redact.ts'
import type { TrafficExchange } from './types.ts'

/** Headers whose whole value is a credential, whatever it holds (Authorization is judged on its own). */
export const CREDENTIAL_HEADERS = ['cookie', 'set-cookie', 'x-api-key', 'proxy-authorization', 'api-key', 'x-auth-token'] as const

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
  private readonly hasNeedles: boolean
  private readonly unknownKeys = new Map<string, string>()

  constructor(secrets: readonly NamedSecret[] = []) {
    this.redactor = new Redactor([...secrets])
    this.hasNeedles = secrets.some((s) => s.value)
    for (const name of CREDENTIAL_HEADERS) this.redactor.maskHeader(name, 'credential')
  }

  private text(value: string): string {
    return this.hasNeedles ? this.redactor.string(value) : value
  }

  private body(value: unknown): unknown {
    if (!this.hasNeedles || value === undefined || value === null) return value
    return this.redactor.value(value)
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

  headers(headers: Record<string, string>): Record<string, string> {
    const out = this.redactor.headers(headers)
    // Redactor.headers keeps a non-bearer Authorization (Basic, a bare key) as it was: mask all but its scheme, which
    // is no secret and which traffic.client.key names.
    for (const name of Object.keys(out)) {
      if (name.toLowerCase() !== 'authorization' || /^bearer <redacted/i.test(out[name]!)) continue
      const scheme = /^([A-Za-z][\w-]*)\s+\S/.exec(out[name]!.trim())?.[1]
      out[name] = scheme === undefined ? '<redacted>' : `${scheme} <redacted>`
    }
    return out
  }

  /**
   * The role of the key that sent the exchange (as exchange() sets it), without masking the rest: judging in
   * partitions (partition.ts) routes by it, and `key#N` numbers keys in traffic order, so it is read for every
   * exchange, in order, wherever the exchange is then judged.
   */
  keyRoleOf(exchange: TrafficExchange): string | undefined {
    const authorization = exchange.request.headers.authorization
    if (exchange.keyRole !== undefined || authorization === undefined) return exchange.keyRole
    return this.roleOf(authorization, this.headers({ authorization }).authorization)
  }

  /** The exchange with every secret masked and its keyRole set; the input is not changed. */
  exchange(exchange: TrafficExchange): TrafficExchange {
    const authorization = exchange.request.headers.authorization
    const requestHeaders = this.headers(exchange.request.headers)
    const keyRole = exchange.keyRole ?? this.roleOf(authorization, requestHeaders.authorization)
    const { body: requestBody, ...request } = exchange.request
    const out: TrafficExchange = {
      ...exchange,
      request: { ...request, url: this.text(request.url), headers: requestHeaders, ...(requestBody !== undefined ? { body: this.body(requestBody) } : {}) },
      ...(keyRole ? { keyRole } : {}),
    }
    if (exchange.response) {
      const { body, ...response } = exchange.response
      out.response = { ...response, headers: this.headers(response.headers), ...(body !== undefined ? { body: this.body(body) } : {}) }
    }
    return out
  }
}
