import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { CheckDefinition } from '../checks/types.ts'
import { KEY_VARIABLES, loadConfig, type KeyRole } from '../config/config.ts'
import { startReferenceServer, type ReferenceServer } from '../reference/index.ts'
import { makeCheckResult, makeEvidence, makeExchange } from '../report/test-fixtures.ts'
import { annotateResults, judgeMain, judgeMainScopes, judgeOptional, outOfScopeRead, preflightTarget, workspaceOf } from './preflight.ts'

describe('judging what the keys answered', () => {
  const base = 'https://crm.example.test/v1'
  test('the main key: silence, 401 and 403 refuse the run, naming CRM_API_KEY', () => {
    expect(judgeMain({ error: 'connect ECONNREFUSED' }, base)).toBe(
      'the target did not answer GET /me at https://crm.example.test/v1: connect ECONNREFUSED; check CRM_BASE_URL (CRMCONF_TARGET_UNREACHABLE)',
    )
    expect(judgeMain({ status: 401 }, base)).toBe(
      'CRM_API_KEY was refused: GET /me answered 401 at https://crm.example.test/v1; set CRM_API_KEY to a valid key of that workspace with every scope',
    )
    expect(judgeMain({ status: 403 }, base)).toMatch(/^CRM_API_KEY may not call GET \/me: 403/)
    expect(judgeMain({ status: 200 }, base)).toBeUndefined()
    expect(judgeMain({ status: 500 }, base)).toBeUndefined()
  })

  test("the main key's scopes: missing ones named; a body that cannot tell (no scopes, a wildcard beside them) never refuses", () => {
    const needed = ['accounts:read', 'accounts:write', 'invoices:read']
    expect(judgeMainScopes({ status: 200, body: { scopes: ['accounts:read'] } }, needed)).toBe(
      'CRM_API_KEY lacks 2 scopes the selected checks need (GET /me, §5.4): accounts:write invoices:read; set CRM_API_KEY to a key with every scope, or select checks that do not need them (--only, --skip, --profile read-only)',
    )
    expect(judgeMainScopes({ status: 200, body: { key: { scopes: 'accounts:read accounts:write invoices:read' } } }, needed)).toBeUndefined()
    expect(judgeMainScopes({ status: 200, body: { scopes: ['*'] } }, needed)).toBeUndefined()
    expect(judgeMainScopes({ status: 200, body: { scopes: ['accounts:read', 'admin'] } }, needed)).toBeUndefined()
    expect(judgeMainScopes({ status: 200, body: { workspace: 'ws1' } }, needed)).toBeUndefined()
    expect(judgeMainScopes({ status: 200, body: { scopes: [] } }, [])).toBeUndefined()
  })

  test('optional keys answering contrary to their role', () => {
    const main = { status: 200, body: { workspace: { id: 'ws1' } } }
    expect(judgeOptional('revoked', { status: 200 }, main)).toMatch(/^CRM_API_KEY_REVOKED is accepted \(GET \/me answered 200\)/)
    expect(judgeOptional('revoked', { status: 401 }, main)).toBeUndefined()
    expect(judgeOptional('ipBlocked', { status: 200 }, main)).toMatch(/^CRM_API_KEY_IP_BLOCKED is accepted from this machine/)
    expect(judgeOptional('ipBlocked', { status: 403 }, main)).toBeUndefined()
    expect(judgeOptional('foreign', { status: 200, body: { workspace: 'ws1' } }, main)).toMatch(
      /^CRM_API_KEY_FOREIGN belongs to the main key's workspace \(ws1/,
    )
    expect(judgeOptional('foreign', { status: 200, body: { workspace: 'ws2' } }, main)).toBeUndefined()
    expect(judgeOptional('foreign', { status: 401 }, main)).toMatch(/^CRM_API_KEY_FOREIGN was refused/)
    expect(judgeOptional('restricted', { status: 200, body: { scopes: 'accounts:read' } }, main)).toBeUndefined()
    expect(
      judgeOptional('restricted', { status: 200, body: { key: { scopes: ['users:read', ...['accounts', 'contacts'].map((a) => `${a}:read`)] } } }, main),
    ).toBeUndefined()
    expect(judgeOptional('ipBlocked', { error: 'timeout' }, main)).toBeUndefined()
  })

  test('the workspace of a /me body, in the shapes the spec leaves open', () => {
    expect(workspaceOf({ workspace: { id: 'a' } })).toBe('a')
    expect(workspaceOf({ workspace: 'b' })).toBe('b')
    expect(workspaceOf({ workspaceId: 'c' })).toBe('c')
    expect(workspaceOf({ name: 'x' })).toBeUndefined()
    expect(workspaceOf('text')).toBeUndefined()
  })

  test('a read outside the declared scopes', () => {
    expect(outOfScopeRead(['accounts:read'])).toEqual({ path: '/contacts', scope: 'contacts:read' })
  })
})

describe('notes on the checks a warned key touches', () => {
  const catalogue = [{ id: 'auth.foreign.get', keys: ['foreign'] }, { id: 'auth.revoked.read' }, { id: 'records.a' }] as CheckDefinition[]
  test('declared keys and keys seen in the evidence', () => {
    const results = [
      makeCheckResult({ id: 'auth.foreign.get', status: 'passed' }),
      makeCheckResult({ id: 'auth.revoked.read', status: 'failed', evidence: [makeEvidence(makeExchange({ keyRole: 'revoked' }))] }),
      makeCheckResult({ id: 'records.a', status: 'passed' }),
    ]
    const annotated = annotateResults(results, catalogue, [
      { role: 'revoked', message: 'R' },
      { role: 'foreign', message: 'F' },
    ])
    expect(annotated.map((r) => r.notes)).toEqual([['configuration warning: F'], ['configuration warning: R'], []])
  })
})

describe('against the reference server', () => {
  let server: ReferenceServer
  beforeAll(async () => {
    server = await startReferenceServer()
  })
  afterAll(async () => {
    await server?.close()
  })
  const configWith = (keys: Partial<Record<KeyRole, string>>, restrictedScopes?: string[]) => {
    const env: NodeJS.ProcessEnv = { CRM_BASE_URL: server.baseUrl }
    for (const [role, value] of Object.entries(keys)) env[KEY_VARIABLES[role as KeyRole]] = value
    if (restrictedScopes) env.CRM_API_KEY_RESTRICTED_SCOPES = restrictedScopes.join(' ')
    return loadConfig(env, { envFile: false })
  }

  test('every key as its role says: no warning', async () => {
    const { rateLimited: _, ...keys } = server.keys
    expect(await preflightTarget(configWith(keys, server.restrictedScopes))).toEqual({ warnings: [], limitPerMinute: 600 })
  })

  test('a wrong main key: refused with one line naming CRM_API_KEY', async () => {
    const result = await preflightTarget(configWith({ main: `${server.keys.main}x` }))
    expect(result.refusal).toMatch(/^CRM_API_KEY was refused: GET \/me answered 401/)
    expect(result.refusal).not.toContain(server.keys.main)
  })

  test('optional keys swapped: each is warned about', async () => {
    const { keys } = server
    const result = await preflightTarget(
      configWith({
        main: keys.main,
        revoked: keys.restricted,
        foreign: keys.restricted,
        ipBlocked: keys.foreign,
        restricted: keys.rateLimited,
        rateLimited: keys.main,
      }),
    )
    const byRole = Object.fromEntries(result.warnings.map((w) => [w.role, w.message]))
    expect(result.refusal).toBeUndefined()
    expect(byRole.revoked).toMatch(/^CRM_API_KEY_REVOKED is accepted/)
    expect(byRole.foreign).toMatch(/^CRM_API_KEY_FOREIGN belongs to the main key's workspace/)
    expect(byRole.ipBlocked).toMatch(/^CRM_API_KEY_IP_BLOCKED is accepted from this machine/)
    expect(byRole.restricted).toMatch(/^CRM_API_KEY_RESTRICTED has every scope|^CRM_API_KEY_RESTRICTED read \//)
    expect(byRole.rateLimited).toBe('CRM_API_KEY_RATE_LIMITED is the same key as CRM_API_KEY: it cannot play its own role')
  })

  test('a restricted key that can read outside its declared scopes', async () => {
    const result = await preflightTarget(configWith({ main: server.keys.main, restricted: server.keys.restricted }, ['accounts:read']))
    expect(result.warnings).toEqual([
      {
        role: 'restricted',
        message: expect.stringMatching(/^CRM_API_KEY_RESTRICTED read \/contacts \(GET answered 200\) although its scopes \(accounts:read\) lack contacts:read/),
      },
    ])
  })
})
