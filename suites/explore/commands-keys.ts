// Reads of the explorer's own records and lists with every key kind the configuration has (§5): the target is
// asked with the configured key, the model with its own key of the same kind. A kind not configured is not sent
// (the command does nothing). The rate-limited key is left out: its small limit is the 429 probe's to spend.
import fc from 'fast-check'
import { CheckSkipped, itemPath, RESOURCES, scopeFor, type KeyRole } from '../../src/checks/index.ts'
import { restrictedScopes } from '../shared/restricted-scopes.ts'
import { List } from './commands.ts'
import { foreignListVerdict, statusVerdict, validKeyVerdict, type Answer, type Verdict } from './contract.ts'
import type { ExploreModel, Own, World } from './world.ts'

/** The key kinds explored, each with what the spec fixes for its reads. */
export const KEY_KINDS = ['revoked', 'ipBlocked', 'foreign', 'restricted', 'roleLimited'] as const satisfies readonly KeyRole[]
export type KeyKind = (typeof KEY_KINDS)[number]

/**
 * What a read with the kind must answer: `model` (the model's key of the same kind answers what the spec fixes: 401
 * for a revoked key §5.5, 403 for a blocked address §5.6), `foreign` (another workspace's key: 404 for the record,
 * §5.7, or 403 where its unstated scopes lack the read; its lists are `valid` and show none of the explorer's
 * records), a fixed refusal (403: outside the key's scopes §5.4, or an operation its owner's role may not do as
 * configured §5.3 b), or `valid` (a key allowed the call: only 401 and 5xx are placed).
 */
type Expectation = 'model' | 'valid' | 'foreign' | { status: 403; why: string }

async function expectation(w: World, kind: KeyKind, own: Own, list: boolean): Promise<Expectation> {
  if (kind === 'revoked' || kind === 'ipBlocked') return 'model'
  // Another workspace's key: its scopes are not stated, so a 403 is as right as the 404 of a record it cannot see.
  if (kind === 'foreign') return list ? 'valid' : 'foreign'
  const op = list ? 'list' : 'get'
  if (kind === 'restricted') {
    const scope = scopeFor(own.resource, op)
    const scopes = await restrictedScopes(w.ctx).then(
      (known) => known.scopes,
      (error: unknown) => {
        if (error instanceof CheckSkipped) return undefined
        throw error
      },
    )
    return scopes && !scopes.includes(scope) ? { status: 403, why: `the restricted key lacks ${scope} (§5.4, §5.6)` } : 'valid'
  }
  const route = `GET ${RESOURCES[own.resource].path}${list ? '' : '/{id}'}`
  return w.ctx.config.roleLimitedDenied?.includes(route) ? { status: 403, why: `the role-limited key's owner may not ${route} (§5.3 b, §5.6)` } : 'valid'
}

export class KeyRead implements fc.AsyncCommand<ExploreModel, World> {
  constructor(
    readonly n: number,
    readonly list: boolean,
  ) {}
  check = (m: Readonly<ExploreModel>) => m.own.length > 0
  /** The same read with each configured kind in turn. */
  async run(m: ExploreModel, w: World): Promise<void> {
    for (const kind of KEY_KINDS) if (w.ctx.config.keys[kind]) await this.readAs(kind, m, w)
  }
  private async readAs(kind: KeyKind, m: ExploreModel, w: World): Promise<void> {
    if (w.exhausted) return
    // A live record: whether a refused key is refused before a missing record is looked up is the target's order.
    const alive = m.own.flatMap((o, i) => (o.alive ? [i] : []))
    if (alive.length === 0) return
    const index = alive[this.n % alive.length]!
    const own = m.own[index]!
    const queries = this.list ? new List({ resource: own.resource as never, filters: [], limit: 100 }).queries(m, own.resource as never) : undefined
    if (this.list && !queries) return
    const expect = await expectation(w, kind, own, this.list)
    w.step(`${this} (${kind})`)
    const [tPath, mPath] = this.list
      ? [RESOURCES[own.resource].path, RESOURCES[own.resource].path]
      : [itemPath(own.resource, own.t), itemPath(own.resource, own.m)]
    const what = `${this.list ? `list ${tPath}` : `get ${own.resource} #${index}`} with the ${kind} key`
    const t = await w.read('target', tPath, queries?.[0], kind)
    const o = await w.read('model', mPath, queries?.[1], expect === 'valid' && kind !== 'foreign' ? 'main' : kind)
    w.judge(this.verdict(what, expect, t, o), 'status')
    if (kind === 'foreign' && this.list && t.status === 200 && Array.isArray(t.body?.data)) {
      const ids = new Set((t.body.data as { id?: unknown }[]).map((r) => String(r?.id).toLowerCase()))
      w.judge(
        foreignListVerdict(
          what,
          m.own.flatMap((o2, i) => (ids.has(o2.t.toLowerCase()) ? [i] : [])),
        ),
        'list-membership',
      )
    }
  }
  private verdict(what: string, expect: Expectation, t: Answer, o: Answer): Verdict | undefined {
    if (expect === 'model') return statusVerdict(what, t, o)
    if (expect === 'valid') return validKeyVerdict(what, t, o)
    if (expect === 'foreign') {
      if (t.status === 403) return undefined
      const verdict = statusVerdict(what, t, o)
      return verdict && 'aspect' in verdict
        ? { ...verdict, expected: "404: another workspace's record is not visible to the key (§5.7), or 403 outside its scopes" }
        : verdict
    }
    const verdict = statusVerdict(what, t, { status: expect.status, body: undefined })
    return verdict && 'aspect' in verdict ? { ...verdict, expected: `${expect.status}: ${expect.why}` } : verdict
  }
  toString = () => `${this.list ? 'list the collection of' : 'get'} record ${this.n} with every configured key kind`
}

/** Reads with every configured key kind, of a record or of its collection. */
export function keyReadArbitrary(): fc.Arbitrary<KeyRead> {
  return fc.tuple(fc.nat({ max: 1000 }), fc.boolean()).map(([n, list]) => new KeyRead(n, list))
}
