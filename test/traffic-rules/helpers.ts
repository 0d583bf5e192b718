// Crafted exchanges for the traffic rules' tests: conformant by default, each test breaks one thing.
import { resolveOperation } from '../../src/traffic/operation.ts'
import type { TrafficExchange, TrafficRule } from '../../src/traffic/types.ts'
import { createVerifier, type TrafficRow } from '../../src/traffic/verifier.ts'

export const BASE = 'http://127.0.0.1:9999/v1'
const T0 = Date.parse('2026-11-24T03:00:00.000Z')

export const RATE = { 'ratelimit-limit': '600', 'ratelimit-remaining': '599', 'ratelimit-reset': '60' }
export const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' }

let seq = 0

export interface Spec {
  method?: string
  /** Path below /v1 with the query, e.g. `/accounts?limit=2`. */
  path: string
  body?: unknown
  /** Added to the defaults; a name set to undefined removes a default header. */
  headers?: Record<string, string | undefined>
  status?: number
  /** Added to the defaults (RATE, JSON_TYPE); a name set to undefined removes it. */
  responseHeaders?: Record<string, string | undefined>
  responseBody?: unknown
  /** Milliseconds after T0 the request starts; it ends `duration` ms later (default 5). */
  at?: number
  duration?: number
  keyRole?: string
  noResponse?: boolean
}

/** The headers that are set: a test removes a default one by naming it undefined. */
function present(headers: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined))
}

export function exchange(spec: Spec): TrafficExchange {
  const at = spec.at ?? seq * 10
  const duration = spec.duration ?? 5
  seq++
  return {
    seq,
    source: 'test',
    request: {
      method: spec.method ?? 'GET',
      url: `${BASE}${spec.path}`,
      headers: present({ authorization: 'Bearer <redacted:CRM_API_KEY>', ...(spec.body !== undefined ? JSON_TYPE : {}), ...spec.headers }),
      ...(spec.body !== undefined ? { body: spec.body } : {}),
    },
    ...(spec.noResponse
      ? {}
      : {
          response: {
            status: spec.status ?? 200,
            headers: present({ ...RATE, ...(spec.responseBody !== undefined ? JSON_TYPE : {}), ...spec.responseHeaders }),
            ...(spec.responseBody !== undefined ? { body: spec.responseBody } : {}),
          },
        }),
    startedAt: new Date(T0 + at).toISOString(),
    endedAt: new Date(T0 + at + duration).toISOString(),
    ...(spec.keyRole !== undefined ? { keyRole: spec.keyRole } : {}),
  }
}

/** The rule's row after the exchanges. */
export function judge(rule: TrafficRule, exchanges: TrafficExchange[]): TrafficRow {
  const verifier = createVerifier({ rules: [rule], basePath: '/v1', resolve: resolveOperation })
  for (const e of exchanges) verifier.observe(e)
  return verifier.finish()[0]!
}

export function uuid(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
}

export function iso(offsetMs: number): string {
  return new Date(T0 + offsetMs).toISOString()
}

export function account(n: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: uuid(n),
    number: null,
    name: `Account ${n}`,
    legalName: null,
    registrationNo: null,
    industry: null,
    website: null,
    email: null,
    phone: null,
    address: null,
    tier: null,
    parentId: null,
    ownerId: null,
    teamId: null,
    tags: [],
    custom: {},
    lastActivityAt: null,
    createdAt: iso(-n * 1000),
    updatedAt: iso(-n * 1000),
    ...overrides,
  }
}

export function quotation(n: number, status: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: uuid(n),
    number: `Q-${n}`,
    version: 1,
    title: 'Q',
    dealId: null,
    accountId: null,
    contactId: null,
    ownerId: null,
    status,
    currency: 'MYR',
    language: 'en',
    validUntil: null,
    paymentTermsDays: null,
    terms: null,
    grossSen: 0,
    discountSen: 0,
    taxSen: 0,
    totalSen: 0,
    sentAt: null,
    decidedAt: null,
    createdAt: iso(0),
    updatedAt: iso(0),
    ...overrides,
  }
}

export function page(records: unknown[], nextCursor = ''): { data: unknown[]; nextCursor: string } {
  return { data: records, nextCursor }
}

export function errorBody(code: string, details?: { path: string; message: string }[]): unknown {
  return { error: { code, message: 'm', ...(details ? { details } : {}) } }
}
