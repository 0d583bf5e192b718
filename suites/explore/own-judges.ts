// What several of the explorer's command families share (commands.ts, commands-replace.ts): a read of an own record
// on both sides, a list walked on both sides and compared on the explorer's own records, the retries of an
// idempotent create, and the bookkeeping they need.
import { readUntil, type Query, type ResourceName } from '../../src/checks/index.ts'
import {
  instantOf,
  membershipVerdict,
  orderedPairs,
  orderVerdict,
  pagesVerdict,
  statusVerdict,
  writtenVerdict,
  type Answer,
  type WalkRead,
} from './contract.ts'
import type { Own, World } from './world.ts'

/** A page bound per walk: the explorer's own records fit in a few pages of the smallest limit it asks. */
export const MAX_PAGES = 30

const okStatus = (a: Answer) => a.status >= 200 && a.status < 300

/** The instant a millisecond before a shown date-time: a since bound that takes that record in. */
export const before = (iso: unknown): string | undefined => {
  const t = instantOf(iso)
  return t === undefined ? undefined : new Date(t - 1).toISOString()
}

/** Keeps the latest record each side answered. */
export function remember(own: Own, t: Answer, m: Answer): void {
  if (okStatus(t) && typeof t.body === 'object' && t.body) own.tLast = t.body
  if (okStatus(m) && typeof m.body === 'object' && m.body) own.mLast = m.body
}

/** Reads an own record on both sides: the status the spec fixes, and what was written to it held. */
export async function readBack(w: World, own: Own, what: string): Promise<void> {
  const [t, o] = await w.get(own)
  w.judge(statusVerdict(what, t, o), 'status')
  remember(own, t, o)
  if (okStatus(t) && okStatus(o)) w.judge(writtenVerdict(what, own.resource, own.written, t.body, o.body), 'written')
}

/**
 * Walks a list on both sides and judges it on the given own records (the walk's membership and order are compared
 * on them alone): status, pages, then membership and order, a list that shows a write a moment late (a search
 * index) read again within the consistency window before judging.
 */
export async function judgeOwnWalk(
  w: World,
  walk: {
    resource: ResourceName
    records: readonly Own[]
    tq: Query
    mq: Query
    open: ReadonlySet<number>
    what: string
    limit?: number
    sort?: 'createdAt' | 'updatedAt'
  },
): Promise<void> {
  const { resource, records, tq, mq, open, what, limit } = walk
  const sortKey = walk.sort ?? 'createdAt'
  const ownOf = (read: WalkRead, side: 't' | 'm') => {
    const index = new Map(records.map((o, i) => [(side === 't' ? o.t : o.m).toLowerCase(), i]))
    return read.pages.flat().flatMap((r) => (index.has(String(r?.id).toLowerCase()) ? [index.get(String(r.id).toLowerCase())!] : []))
  }
  const mWalk = await w.walk('model', resource, mq, MAX_PAGES)
  const expected = ownOf(mWalk, 'm')
  const sortValue = (read: WalkRead) => {
    const shown = new Map(read.pages.flat().map((r) => [String(r?.id).toLowerCase(), r]))
    return (i: number) => instantOf(shown.get(records[i]!.t.toLowerCase())?.[sortKey])
  }
  const judged = (read: WalkRead) =>
    membershipVerdict(what, ownOf(read, 't'), expected, open) ?? orderVerdict(what, ownOf(read, 't'), expected, sortValue(read))
  let tWalk = await w.walk('target', resource, tq, MAX_PAGES)
  if (tWalk.status === 200 && mWalk.status === 200 && tWalk.complete && mWalk.complete && judged(tWalk))
    tWalk = (
      await readUntil(
        w.ctx,
        () => w.walk('target', resource, tq, MAX_PAGES),
        (read) => read.status !== 200 || !judged(read),
        { first: tWalk },
      )
    ).answer
  w.judge(statusVerdict(what, { status: tWalk.status, body: tWalk.body }, { status: mWalk.status, body: mWalk.body }), 'status')
  if (tWalk.status !== 200 || mWalk.status !== 200) return
  w.judge(pagesVerdict(what, limit, tWalk, sortKey), 'pages')
  if (!tWalk.complete || !mWalk.complete) return
  w.compared('list-membership')
  // An order is compared only where two own records both sides list have shown sort values that differ.
  if (orderedPairs(ownOf(tWalk, 't'), expected, sortValue(tWalk)) > 0) w.compared('list-order')
  w.judge(judged(tWalk))
}

/** The second and third tries of a create with the same Idempotency-Key and body: each answers the first try's record (§4.1). */
export async function retriedTwice(w: World, what: string, own: Own, retry: () => Promise<[Answer, Answer]>): Promise<void> {
  for (const attempt of ['second', 'third']) {
    const [t2, o2] = await retry()
    w.judge(statusVerdict(`${what}, the ${attempt} try`, t2, o2), 'status')
    if (okStatus(t2) && okStatus(o2))
      w.judge(
        String(t2.body?.id).toLowerCase() === own.t.toLowerCase()
          ? undefined
          : {
              aspect: 'idempotency',
              message: `${what}: the ${attempt} try with the same key and body answers record ${JSON.stringify(t2.body?.id)}, the first made ${own.t}`,
              expected: 'a retry with the same key and body returns the first response (§4.1)',
            },
        'idempotency',
      )
  }
}
