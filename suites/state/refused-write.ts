// §3.1: a write the record's state does not allow is refused and leaves the record as it was. One probe for
// every such rule: GET before, the write, GET after, with no other probe of the same record in between.
import { expectRecord, itemPath, CheckSkipped } from '../../src/checks/index.ts'
import type { CheckContext, AnyRecord, ApiResponse, ResourceName } from '../../src/checks/index.ts'
import { exclusive, recordLock } from '../shared/exclusive.ts'
import type { Found } from '../shared/fixtures.ts'
import { changedFields, diffOf } from '../shared/record-diff.ts'
import { REFUSAL_EXPECTED, isStateRefusal, namesSentField, refusalOf } from '../shared/refusal.ts'

export interface RefusedWrite {
  resource: ResourceName
  target: Found
  /** `replace` or `delete`, as §3.1 words it. */
  op: string
  clause: string
  /** The body the write sends, built from the record as read before (none for a delete). */
  body?: (before: AnyRecord) => AnyRecord
  send: (body: AnyRecord | undefined) => Promise<ApiResponse>
  /** Fields a concurrent, legitimate change may move (e.g. a payment on an invoice), given both versions. */
  tolerate?: (before: AnyRecord, after: AnyRecord) => string[]
}

/** Judges the write; returns the state the record was in. */
export async function expectRefusedWrite(ctx: CheckContext, probe: RefusedWrite): Promise<unknown> {
  const { resource, target, op, clause } = probe
  const path = itemPath(resource, target.id)
  const { before, sent, response, after } = await exclusive(ctx.session, recordLock(resource, target.id), async () => {
    const before = await ctx.api.get(path)
    if (before.status === 404) ctx.skip(`${target.variable}: GET ${path} answered 404; set it to a visible non-draft ${resource}`)
    expectRecord(before, '§4.2', `GET of an existing ${resource}`)
    if (before.body?.status === 'draft') ctx.skip(`${resource} ${target.id} is a draft; set ${target.variable} to a non-draft ${resource}`)
    const sent = probe.body?.(before.body)
    const response = await probe.send(sent)
    const after = await ctx.api.get(path)
    return { before, sent, response, after }
  })
  const state = before.body.status
  ctx.observe(`${resource}.status`, state)
  const evidence = [before.exchange, response.exchange, after.exchange]
  if (response.ok) {
    ctx.fail(`${op} of the ${state} ${resource} was accepted (status ${response.status}); only a draft may be ${op}d (${clause})`, {
      expected: REFUSAL_EXPECTED,
      exchanges: evidence,
    })
  }
  if (!isStateRefusal(response.status)) {
    ctx.fail(`${op} of the ${state} ${resource}: status is ${response.status}, expected a 4xx refusal other than 401 and 429 (${clause})`, {
      expected: REFUSAL_EXPECTED,
      exchanges: [response.exchange],
    })
  }
  const field = sent ? namesSentField(response, sent) : undefined
  if (field) ctx.skip(`the ${op} was refused as invalid input (details name ${field}), not for the ${resource}'s state: cannot tell`)
  ctx.observe('refusal', refusalOf(response))
  if (after.status !== 200) {
    ctx.fail(`after the refused ${op}, GET ${path} answers ${after.status}, expected 200 (${clause})`, {
      expected: `the ${resource} is still there`,
      exchanges: evidence,
    })
  }
  const tolerated = probe.tolerate?.(before.body, after.body) ?? []
  if (tolerated.length > 0) ctx.note(`a concurrent change moved ${tolerated.join(', ')}; those fields were not compared`)
  const changed = changedFields(before.body, after.body, tolerated)
  if (changed.length > 0) {
    ctx.fail(`the refused ${op} changed the ${resource}: ${changed.join(', ')} (${clause})`, {
      expected: `a refused write leaves the ${resource} unchanged, updatedAt included`,
      exchanges: evidence,
      data: diffOf(before.body, after.body, changed),
    })
  }
  return state
}

/**
 * The same refused write against one record of each non-draft state found (§3.1 holds for every state but
 * draft, not only `sent`). A target that cannot judge (gone, a draft by now, refused as invalid input) is noted
 * and the next one judged; the check skips only when none could.
 */
export async function expectRefusedInEveryState(
  ctx: CheckContext,
  resource: ResourceName,
  targets: Found[],
  write: (target: Found) => Omit<RefusedWrite, 'resource' | 'target'>,
): Promise<void> {
  if (targets.length === 0) return ctx.skip(`no non-draft ${resource} found by listing ${resource}s; set the fixture variables`)
  let firstSkip: CheckSkipped | undefined
  const judged: unknown[] = []
  for (const target of targets) {
    try {
      judged.push(await expectRefusedWrite(ctx, { resource, target, ...write(target) }))
    } catch (error) {
      if (!(error instanceof CheckSkipped)) throw error
      firstSkip ??= error
      ctx.note(`${target.id} (${target.source}): ${error.message}`)
    }
  }
  ctx.observe('statesJudged', judged)
  if (judged.length === 0 && firstSkip) throw firstSkip
}
