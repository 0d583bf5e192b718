// §5.1, §5.2, §5.5, §7.4: a call without a valid bearer key is answered 401 with the error envelope, on a read,
// on a write and on GET /me. Writes send a valid body, so that only the credential can be the reason for a refusal.
// GET /me ("check a key", §4.2) is the call a client makes to ask whether its key works: a 200 there tells it a
// dead or absent key is live, so it is judged with every credential like any other call (§4.2 "every call
// carries the bearer key").
import { expectErrorEnvelope, defineCheck, tagged, RESOURCES, ME_PATH } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, Level, KeyRole, ApiClient, ApiResponse, ApiRequest } from '../../src/checks/index.ts'
import { randomBytes } from 'node:crypto'
import { validCreateBody } from '../shared/bodies.ts'
import { expectCreateNotAccepted } from './refused-create.ts'

const area = 'auth'

interface Credential {
  /** The id segment: `auth.<id>.read`, `auth.<id>.write`, `auth.<id>.me`. */
  id: string
  /** "A read <what> …" */
  what: string
  level: Level
  clauses: string[]
  keys?: KeyRole[]
  /** The client and the Authorization header to send. */
  sender(ctx: CheckContext): { client: ApiClient; auth?: ApiRequest['auth'] }
}

/** The main key split as §5.2 describes it (`<prefix>_<workspace>_<secret>`), when it has that form. */
function keyParts(key: string): { prefix: string; middle: string; secret: string } | undefined {
  const parts = key.split('_')
  if (parts.length < 3) return undefined
  return { prefix: parts[0]!, middle: parts.slice(1, -1).join('_'), secret: parts.at(-1)! }
}

function mainKey(ctx: CheckContext): string {
  const key = ctx.config.keys.main
  if (!key) ctx.skip('CRM_API_KEY is not set')
  return key
}

function randomAlnum(length: number): string {
  let out = ''
  while (out.length < length)
    out += randomBytes(length)
      .toString('base64')
      .replace(/[^A-Za-z0-9]/g, '')
  return out.slice(0, length)
}

/** The main key with another prefix: it still holds the real secret, so it is redacted like the key itself. */
function wrongPrefixKey(ctx: CheckContext): string {
  const key = mainKey(ctx)
  const parts = keyParts(key)
  const derived = parts ? `${parts.prefix === 'zzz' ? 'yyy' : 'zzz'}_${parts.middle}_${parts.secret}` : `zzz_${key}`
  ctx.session.redactor.add({ name: 'CRM_API_KEY', value: derived })
  return derived
}

/** A key of the right form, prefix and workspace whose secret part was never issued. */
function unknownSecretKey(ctx: CheckContext): string {
  const key = mainKey(ctx)
  const parts = keyParts(key)
  return parts ? `${parts.prefix}_${parts.middle}_${randomAlnum(Math.max(parts.secret.length, 16))}` : randomAlnum(key.length)
}

// Each row names the implementer mistake it catches.
const CREDENTIALS: Credential[] = [
  // The 401/403 confusion: "no key" treated as "not allowed".
  { id: 'missing-key', what: 'no Authorization header', level: 'MUST', clauses: ['§5.5', '§7.4'], sender: (ctx) => ({ client: ctx.api, auth: 'none' }) },
  // A header parser that answers 400 (or lets the call through) when the scheme has no token.
  {
    id: 'bearer-without-key',
    what: 'the header `Authorization: Bearer` and no key',
    level: 'MUST',
    clauses: ['§5.5', '§5.1', '§7.4'],
    sender: (ctx) => ({ client: ctx.api, auth: { header: 'Bearer' } }),
  },
  // A parser that answers 400 for another scheme instead of 401.
  {
    id: 'basic-scheme',
    what: 'Basic credentials instead of a bearer key',
    level: 'MUST',
    clauses: ['§5.5', '§5.1', '§7.4'],
    sender: (ctx) => ({ client: ctx.api, auth: { header: `Basic ${Buffer.from('crmconf:not-a-key').toString('base64')}` } }),
  },
  // A lookup by workspace and secret that never compares the prefix.
  {
    id: 'wrong-prefix',
    what: 'the main key under another prefix',
    level: 'MUST',
    clauses: ['§5.5', '§5.2', '§7.4'],
    sender: (ctx) => ({ client: ctx.api, auth: { header: `Bearer ${wrongPrefixKey(ctx)}` } }),
  },
  // A check of the key's form and workspace that never compares the secret.
  {
    id: 'unknown-secret',
    what: 'a well-formed key whose secret was never issued',
    level: 'MUST',
    clauses: ['§5.5', '§5.2', '§7.4'],
    sender: (ctx) => ({ client: ctx.api, auth: { header: `Bearer ${unknownSecretKey(ctx)}` } }),
  },
  // A key parser that crashes (500) on a token it cannot split.
  {
    id: 'garbage-key',
    what: 'a bearer token that is not a key at all',
    level: 'MUST',
    clauses: ['§5.5', '§7.4'],
    sender: (ctx) => ({ client: ctx.api, auth: { header: 'Bearer !!not-a-key!!' } }),
  },
  // Revocation not checked on each call (e.g. a cache of valid keys that is never invalidated).
  { id: 'revoked-key', what: 'a revoked key', level: 'MUST', clauses: ['§5.5', '§7.4'], keys: ['revoked'], sender: (ctx) => ({ client: ctx.as('revoked') }) },
  // A parser that takes the second word of the header whatever the scheme: the key works as `Basic <key>`.
  // SHOULD: §5.1 says how the key is sent, not that every other way must be refused.
  {
    id: 'key-under-basic-scheme',
    what: 'the main key sent under the Basic scheme',
    level: 'SHOULD',
    clauses: ['§5.1', '§5.5'],
    sender: (ctx) => ({ client: ctx.api, auth: { header: `Basic ${mainKey(ctx)}` } }),
  },
]

/** §7.8: codes other than invalid_request are not shown; the one a 401 carries is reported once for the run. */
function expect401(ctx: CheckContext, res: ApiResponse): void {
  const code = res.body?.error?.code
  if (res.status === 401 && typeof code === 'string') ctx.noteCapability('auth.unauthorized.code', code)
  expectErrorEnvelope(res, '§5.5', { status: 401 })
}

function readCheck(c: Credential): CheckDefinition {
  return defineCheck({
    id: `auth.${c.id}.read`,
    clauses: c.clauses,
    level: c.level,
    area,
    title: `A read with ${c.what} is answered 401 with the error envelope`,
    keys: c.keys,
    async run(ctx) {
      const { client, auth } = c.sender(ctx)
      const res = await client.get(RESOURCES.account.path, { limit: 1 }, { auth })
      if (c.id === 'missing-key') ctx.observe('www-authenticate', res.header('www-authenticate') ?? null)
      expect401(ctx, res)
    },
  })
}

function writeCheck(c: Credential): CheckDefinition {
  return defineCheck({
    id: `auth.${c.id}.write`,
    clauses: c.clauses,
    level: c.level,
    area,
    title: `A create with ${c.what} and a valid body is answered 401 and creates nothing`,
    keys: c.keys,
    writes: 'safe',
    async run(ctx) {
      const { client, auth } = c.sender(ctx)
      const valid = await validCreateBody(ctx, 'account', `auth ${c.id}`)
      const res = await client.post(RESOURCES.account.path, tagged(ctx, 'account', valid.body), { auth })
      expectCreateNotAccepted(ctx, 'account', res, { status: 401, clause: '§5.5', why: 'a call without a valid key is refused with 401 (§5.5, §7.4)' })
      expect401(ctx, res)
    },
  })
}

/** GET /me with the credential. A 2xx is failed with the body it returned (the profile a dead key was shown). */
function meCheck(c: Credential): CheckDefinition {
  return defineCheck({
    id: `auth.${c.id}.me`,
    clauses: [...c.clauses, '§4.2'],
    level: c.level,
    area,
    title: `GET /me with ${c.what} is answered 401 with the error envelope`,
    keys: c.keys,
    async run(ctx) {
      const { client, auth } = c.sender(ctx)
      const res = await client.get(ME_PATH, undefined, { auth })
      if (res.ok) {
        ctx.fail(`GET /me with ${c.what} answered ${res.status}, expected 401 (§5.5)`, {
          expected: 'a missing key or one that is not (or no longer) valid gives 401 (§5.5, §7.4), on GET /me as on every call',
          exchanges: [res.exchange],
          data: res.body,
        })
      }
      expect401(ctx, res)
    },
  })
}

export const checks: CheckDefinition[] = CREDENTIALS.flatMap((c) => [readCheck(c), writeCheck(c), meCheck(c)])
