// The comparison contract: what the explorer compares between the target's answer and the reference model's, per
// aspect, and what it leaves open. Each aspect is one check `explore.<aspect>`; a difference on a compared aspect
// fails it at the clause's level, a difference the contract cannot place is information only. Judgements that a
// check or a traffic rule also makes are the functions of src/judge/ (through the kit). docs/explore.md is the
// reader's copy of this table.
import {
  composedFields,
  errorEnvelopeProblem,
  firstRepeated,
  notCreatedAsDraft,
  pageSizeProblem,
  refusalProblem,
  writtenMismatches,
  type AnyRecord,
  type Level,
  type ResourceName,
} from '../../src/checks/index.ts'

export type Aspect = 'status' | 'written' | 'unchanged' | 'list-membership' | 'list-order' | 'pages' | 'idempotency' | 'walk-writes'

export interface AspectRule {
  clauses: string[]
  level: Level
  /** What a conformant server does: the check's title. */
  title: string
  /** What is compared, in words (docs/explore.md). */
  compares: string
  /** What an exploration must have done to compare this aspect once: the reason its check skips when it did not (rule 2). */
  needs: string
}

export const ASPECTS: Record<Aspect, AspectRule> = {
  status: {
    clauses: ['§7', '§4.1', '§4.4'],
    level: 'MUST',
    title:
      'Every explored operation answers in the status class the spec fixes: success where the model succeeds, 400 invalid_request and 404 exactly where §7 gives them',
    compares: 'success against refusal; 400 with code invalid_request, 401, 403 and 404 exactly; another refusal of the model only as a 4xx; never a 5xx',
    needs: 'an operation answered by both the target and the model',
  },
  written: {
    clauses: ['§4.2', '§2', '§4.4'],
    level: 'MUST',
    title: 'The records answered by creates, updates and reads hold every field the explorer wrote and did not write since',
    compares: 'each field sent in a create or update, as src/judge/written.ts reads it back (case, offsets, added tags and custom keys allowed)',
    needs: 'a create, update or read that both sides accepted',
  },
  unchanged: {
    clauses: ['§4.2', '§7'],
    level: 'MUST',
    title: 'A read after a delete answers 404 where the model has the record gone',
    compares: 'the state after a delete: the read that follows it answers as the model does (404 once deleted)',
    needs: 'a delete followed by its read on both sides',
  },
  'list-membership': {
    clauses: ['§4.3', '§4.1'],
    level: 'MUST',
    title: "Lists with random filters, pairs of filters and since bounds hold exactly the explorer's records the model holds",
    compares: "which of the explorer's own records a list shows, for each filter, pair of filters, createdSince and updatedSince bound",
    needs: 'a list walked to its last page on both sides',
  },
  'list-order': {
    clauses: ['§4.1', '§9.2'],
    level: 'MUST',
    title: "Lists sorted by createdAt or updatedAt, ascending or descending, show the explorer's records in the model's order",
    compares: "the relative order of the explorer's records, where their shown sort values differ",
    needs: 'a list walked to its last page on both sides showing two of its records with different sort values',
  },
  pages: {
    clauses: ['§4.1', '§8', '§9.2'],
    level: 'MUST',
    title: 'Walks with random limits never show more than the limit on a page nor a record twice',
    compares: 'page sizes against the limit asked and each record once per walk',
    needs: 'a list walk the target answered',
  },
  idempotency: {
    clauses: ['§4.1'],
    level: 'MUST',
    title: 'A create retried with the same Idempotency-Key and body, a second and a third time, answers the record the first try made',
    compares:
      'the record id answered by each retry; records are not counted here (a retry that answers the first record but makes another is for the idempotency checks)',
    needs: 'a create with an Idempotency-Key accepted by both sides, retried with the same body and accepted again',
  },
  'walk-writes': {
    clauses: ['§9.2', '§4.1'],
    level: 'SHOULD',
    title: 'A walk with creates, updates and deletes between its pages shows every record it did not touch, present before it, exactly once',
    compares:
      'how often a walk with writes between its pages shows each own record present before it and neither written nor deleted during it (once where the model lists it, never elsewhere)',
    needs: 'a walk with a write between its pages that both sides walked to the last page, with an own record shown before it and left untouched',
  },
}

/** What the contract leaves open, and why (docs/explore.md prints it). */
export const OPEN: readonly string[] = [
  'ids and record numbers: each side draws its own; the explorer maps them as records are created',
  'success codes (200 or 201) and delete bodies: §4.1 "not shown"',
  'timestamps: compared only as the order they give, where the shown values differ (a store in whole seconds ties records the model orders)',
  'fields the explorer did not write: defaults, owners, routing, composed names (§4.4 names no default)',
  'extra fields, extra tags and custom keys: §2 lists what is present, not what is absent',
  'error wording and codes other than invalid_request, the status of a refusal §7 does not name (§7.8)',
  'cursor format and the last page convention (§4.1 "not shown")',
  'the update method (PATCH or PUT): src/checks/operations.ts finds it',
  'records the explorer did not create: lists are compared on its own records only',
  "reads with a key allowed the call (restricted inside its scopes, role-limited outside its denials, another workspace's lists): what its owner sees (§5.3), only 401 and 5xx placed",
  "fixtures mirrored from the target: their fields are the target's, the accepted quotation's state name (§3) is the model's",
  'in a walk with writes between its pages: whether a record created, updated or deleted during the walk shows (none, once, or twice when an update moves it under sort=updatedAt), the order of the pages after a write, whether a page short of the limit is followed by more',
  'the replace method (PUT or PATCH): src/checks/operations.ts finds it, as for the update',
  "money a quotation or invoice derives from its line items (grossSen, discountSen, taxSen, totalSen): the inner shape of items is not shown (§2), so the explorer sends items [] and reports a total other than the model's as information",
  "a quotation's version (§2 says only integer: its start and whether a replace moves it are not shown), an invoice's dueDate, the status after a replace (§3: transitions not shown), so a status filter is compared only on records both sides show in the same status",
  "defaults of what the explorer did not send: a product's unit, currency and status, a quotation's currency and language, an invoice's issueDate and paymentTermsDays (§4.4 names no default)",
  "an activity's subjectType and subjectId (§2 names no rule), its body beyond the written text (a preview, §8), a comment's body (sanitised HTML, §2) and author",
  "messages are never sent: a reply goes out through the conversation's channel (§1.6), which a test run must not do; comments are internal notes only (a public one is emailed to the case contact, §1.6)",
  'quotations and invoices in a state other than draft: the explorer makes drafts only (the state area replaces and deletes its fixtures); a replace or delete of a deleted draft is compared by status',
  "the target's articles, users and messages: their fields are the target's (mirrored into the model, not compared); only which of them a filter shows and their order are compared, on a walk that ends within 5 pages; a record another client changed since the page was read is open, and so is a user's order by updatedAt (§2 shows none)",
  "what each side chooses on cases, leads and deals: a case's status, priority, statusCategory, slaState, assignee and team after routing (§1.6, §3), a lead's owner and team after routing and its status until an update sets it (§1.6, §3), a deal's pipelineId, stageKey, probability and status (§4.4 names no default); a filter on such a value (case status and priority, lead status, deal stageKey and status) asks each side for the value that side shows, and a record the two sides' values sort differently is open",
  "a refusal (4xx) of an update that sets a lead's status: §3 lists the settable values but shows no transitions, so the lead's state may not allow it (information)",
]

/** One side's answer to one request. */
export interface Answer {
  status: number
  body: any
}

/** A difference the contract places on an aspect (fails it), or cannot place (information). */
export type Verdict = { aspect: Aspect; message: string; expected: string } | { unplaced: string }

const ok = (a: Answer) => a.status >= 200 && a.status < 300
const EXACT = new Set([400, 401, 403, 404])

/** The status the spec fixes for an operation, given the model's answer (§7): the class, and the exact code where §7 names one. */
export function statusVerdict(what: string, target: Answer, model: Answer): Verdict | undefined {
  if (target.status >= 500)
    return {
      aspect: 'status',
      message: `${what}: ${target.status} where the model answers ${model.status}`,
      expected: `${model.status} (§7: a server error is no answer)`,
    }
  if (ok(model) && ok(target)) return undefined
  if (ok(model))
    return {
      aspect: 'status',
      message: `${what}: refused with ${target.status} where the model accepts it (${model.status})`,
      expected: 'a valid request is accepted (§4.1, §4.4)',
    }
  if (ok(target))
    return {
      aspect: 'status',
      message: `${what}: accepted with ${target.status} where the model refuses it with ${model.status}`,
      expected: `${model.status} (§7)`,
    }
  if (EXACT.has(model.status) && target.status !== model.status)
    return { aspect: 'status', message: `${what}: ${target.status} where the model answers ${model.status}`, expected: `${model.status} (§7.3–§7.6)` }
  if (model.status === 400) {
    const problem = refusalProblem(target.status, target.body, undefined)
    if (problem) return { aspect: 'status', message: `${what}: ${problem}`, expected: '400 invalid_request in the §7.1 envelope (§7.3)' }
  }
  const envelope = errorEnvelopeProblem(target.body)
  if (envelope) return { unplaced: `${what}: ${envelope}` }
  if (target.status !== model.status) return { unplaced: `${what}: refused with ${target.status}, the model with ${model.status} (§7.8: not shown)` }
  return undefined
}

/** What the explorer wrote to one record: its create body, every update merged since, and the fields any of those writes let the server compose. */
export interface Written {
  create: AnyRecord
  updates: AnyRecord
  composed: string[]
}

/** Notes one more write of a record (an update merged over the earlier ones). */
export function written(resource: ResourceName, before: Written | undefined, body: AnyRecord): Written {
  const composed = [...new Set([...(before?.composed ?? []), ...composedFields(resource, body)])]
  return before ? { create: before.create, updates: { ...before.updates, ...body }, composed } : { create: body, updates: {}, composed }
}

/** What was written to a record and is not held by it (src/judge/written.ts). */
function misses(resource: ResourceName, written: Written, record: AnyRecord) {
  const created = Object.fromEntries(Object.entries(written.create).filter(([field]) => !(field in written.updates)))
  return [...writtenMismatches(resource, 'create', created, record), ...writtenMismatches(resource, 'update', written.updates, record)]
}

/**
 * Fields written (and not written again since) that the target's record does not hold but the model's does. Each
 * side is judged against what it was sent: the same values, but references by each side's own ids.
 */
export function writtenVerdict(
  what: string,
  resource: ResourceName,
  written: { t: Written; m: Written },
  target: AnyRecord,
  model: AnyRecord,
): Verdict | undefined {
  const modelMisses = new Set(misses(resource, written.m, model).map((m) => m.field))
  // A field the server may compose from others written over the record's life (a contact's fullName from its
  // names, written then or earlier) is only asked to hold something.
  const composed = written.t.composed
  const targetMisses = misses(resource, written.t, target).filter(
    (m) => !modelMisses.has(m.field) && !(composed.includes(m.field) && typeof m.got === 'string' && m.got.trim() !== ''),
  )
  if (targetMisses.length === 0) return undefined
  const shown = targetMisses.slice(0, 3).map((m) => `${m.field}: wrote ${JSON.stringify(m.sent)}, got ${JSON.stringify(m.got)}`)
  return { aspect: 'written', message: `${what}: ${shown.join('; ')}`, expected: 'a record holds what was written to it (§4.2, §2)' }
}

/** One walk of a list: its pages as read. */
export interface WalkRead {
  status: number
  pages: AnyRecord[][]
  /** The walk ended (a last page); false when the page bound cut it. */
  complete: boolean
  body?: any
}

/** Page sizes and repeats of the target's walk: rules on the target alone (src/judge/lists.ts). */
export function pagesVerdict(what: string, limit: number | undefined, walk: WalkRead, sortKey: 'createdAt' | 'updatedAt'): Verdict | undefined {
  for (const [i, page] of walk.pages.entries()) {
    const problem = pageSizeProblem(limit === undefined ? undefined : String(limit), page.length, i < walk.pages.length - 1 && walk.pages[i + 1]!.length > 0)
    if (problem) return { aspect: 'pages', message: `${what}, page ${i + 1}: ${problem}`, expected: 'pages of the limit asked (§4.1, §8)' }
  }
  const repeated = firstRepeated(walk.pages, sortKey)
  if (repeated)
    return {
      aspect: 'pages',
      message: `${what}: record ${repeated.id} on page ${repeated.first + 1} and again on page ${repeated.again + 1}`,
      expected: 'each record once per walk (§9.2)',
    }
  return undefined
}

/** A page longer than the limit asked (§4.1, §8): the one page-size rule a walk with writes between its pages keeps. */
export function pageSizeVerdict(what: string, limit: number | undefined, count: number): Verdict | undefined {
  const problem = pageSizeProblem(limit === undefined ? undefined : String(limit), count, false)
  return problem ? { aspect: 'pages', message: `${what}: ${problem}`, expected: 'no page longer than the limit asked (§4.1, §8)' } : undefined
}

/** The instant a shown date-time names, or undefined when it names none. */
export function instantOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined
  // More than three fractional digits (microseconds, nanoseconds) name the same millisecond to a reader of ms.
  const t = Date.parse(value.replace(/(\.\d{3})\d+/, '$1'))
  return Number.isNaN(t) ? undefined : t
}

/**
 * Membership of the explorer's own records (by their index) in a list: the model's against the target's. `open`
 * holds the records whose membership the contract leaves open (tied with a since bound at the target's precision).
 */
export function membershipVerdict(what: string, target: number[], model: number[], open: ReadonlySet<number>): Verdict | undefined {
  const t = new Set(target)
  const m = new Set(model)
  const missing = model.filter((i) => !t.has(i) && !open.has(i))
  const extra = target.filter((i) => !m.has(i) && !open.has(i))
  if (missing.length === 0 && extra.length === 0) return undefined
  const parts = [missing.length ? `missing #${missing.join(', #')}` : '', extra.length ? `shown though the model leaves out #${extra.join(', #')}` : '']
  return {
    aspect: 'list-membership',
    message: `${what}: ${parts.filter(Boolean).join('; ')}`,
    expected: 'the records the filters, bounds and deletes leave (§4.1, §4.3)',
  }
}

/** The pairs of own records both sides list whose shown sort values differ, in the model's order: what an order comparison reads. */
function comparablePairs(target: number[], model: number[], sortValue: (index: number) => number | undefined): [number, number][] {
  const listed = new Set(target)
  const both = model.filter((i) => listed.has(i))
  const pairs: [number, number][] = []
  for (let a = 0; a < both.length; a++) {
    for (let b = a + 1; b < both.length; b++) {
      const [x, y] = [both[a]!, both[b]!]
      const [vx, vy] = [sortValue(x), sortValue(y)]
      if (vx !== undefined && vy !== undefined && vx !== vy) pairs.push([x, y])
    }
  }
  return pairs
}

/** How many pairs an order comparison of these lists reads (0: the order was not judged). */
export function orderedPairs(target: number[], model: number[], sortValue: (index: number) => number | undefined): number {
  return comparablePairs(target, model, sortValue).length
}

/** Relative order of own records listed by both: a pair the model orders one way, shown the other way where the target's sort values differ. */
export function orderVerdict(what: string, target: number[], model: number[], sortValue: (index: number) => number | undefined): Verdict | undefined {
  const position = new Map(target.map((index, at) => [index, at]))
  for (const [x, y] of comparablePairs(target, model, sortValue)) {
    if (position.get(x)! > position.get(y)!)
      return { aspect: 'list-order', message: `${what}: #${y} shown before #${x}, the model's order is #${x} then #${y}`, expected: 'the order asked (§4.1)' }
  }
  return undefined
}

/**
 * A walk with creates, updates or deletes of the explorer's records between its pages (§4.1, §9.2). What the spec
 * fixes, compared at MUST by the callers: every page answers as the model's does (`status`: the cursor handed out
 * is the next page's parameter, §4.1, so it is never refused and never a 5xx), and no page is longer than the
 * limit asked (`pages`, §4.1, §8). What it leaves open, never compared: a record created, updated or deleted
 * during the walk may show or not, and an update may move a record under sort=updatedAt so that it shows twice;
 * the order after a write; pages short of the limit. What convention fixes, judged here at SHOULD: an opaque
 * cursor (§9.2) marks a position, not an offset, so a record present before the walk and untouched during it
 * shows exactly as often as the model's walk shows it (once where it matches, never elsewhere). `counts` holds,
 * per such record (by index), how often each walk showed it.
 */
export function interleavedVerdict(what: string, counts: { index: number; target: number; model: number }[]): Verdict | undefined {
  const wrong = counts.filter((c) => c.target !== c.model)
  if (wrong.length === 0) return undefined
  const shown = wrong
    .slice(0, 3)
    .map((c) => `#${c.index} shown ${c.target === 1 ? 'once' : `${c.target} times`}, the model ${c.model === 1 ? 'once' : `${c.model} times`}`)
  return {
    aspect: 'walk-writes',
    message: `${what}: ${shown.join('; ')} (records present before the walk and untouched during it)`,
    expected: 'an opaque cursor marks a position: writes between pages neither skip nor repeat a record they did not touch (§9.2, §4.1)',
  }
}

/**
 * A read with a key kind whose answer the spec does not fix by itself (a key inside its scopes, whose owner's role
 * and visibility are the target's own, §5.3): only a refusal as if the key were invalid (401, §5.5) or a server
 * error is placed; any other difference from the main key's model answer is information.
 */
export function validKeyVerdict(what: string, target: Answer, model: Answer): Verdict | undefined {
  if (target.status >= 500 || target.status === 401)
    return {
      aspect: 'status',
      message: `${what}: ${target.status} for a valid key`,
      expected: 'a valid key is never answered 401 (§5.5, §7.4) and never a server error (§7)',
    }
  if (ok(target) !== ok(model) || (!ok(target) && target.status !== model.status))
    return { unplaced: `${what}: ${target.status}, the main key's model ${model.status} (§5.3: the owner's role and what it sees are the target's)` }
  return undefined
}

/** A list read with another workspace's key: none of the explorer's records may show (§5.2, §5.7). */
export function foreignListVerdict(what: string, shown: number[]): Verdict | undefined {
  if (shown.length === 0) return undefined
  return {
    aspect: 'list-membership',
    message: `${what}: another workspace's key is shown the explorer's records #${shown.join(', #')}`,
    expected: "a key reaches only its own workspace's records (§5.2, §5.7)",
  }
}

/**
 * What a replace wrote (§4.2 "send every field and all line items"): the whole body, as if created anew. Nothing an
 * earlier write sent is held against the record afterwards, and every field the replace sent is.
 */
export function replaced(resource: ResourceName, body: AnyRecord): Written {
  return { create: body, updates: {}, composed: composedFields(resource, body) }
}

/**
 * What the spec fixes of a quotation or invoice just created, beyond the fields written: §3 "created as a draft"
 * (status `draft`, the only named value), and for an invoice §2 paidSen "paid so far", 0 when nothing was paid.
 * Judged on the target's answer alone: the model's is the same by construction.
 */
export function newDraftVerdict(what: string, resource: 'quotation' | 'invoice', record: AnyRecord): Verdict | undefined {
  const draft = notCreatedAsDraft(resource, record.status)
  if (draft) return { aspect: 'written', message: `${what}: ${draft.message}`, expected: draft.expected }
  if (resource === 'invoice' && record.paidSen !== 0)
    return {
      aspect: 'written',
      message: `${what}: a new invoice shows paidSen ${JSON.stringify(record.paidSen)}, nothing was paid against it`,
      expected: 'paidSen 0: §2 "paid so far", and no payment was recorded',
    }
  return undefined
}

/** The money a record derives from its line items (§2), whose rule is not shown: a difference from the model is information. */
const DERIVED_MONEY: Partial<Record<ResourceName, readonly string[]>> = {
  quotation: ['grossSen', 'discountSen', 'taxSen', 'totalSen'],
  invoice: ['totalSen', 'taxSen'],
}

export function derivedMoneyNote(what: string, resource: ResourceName, target: AnyRecord, model: AnyRecord): Verdict | undefined {
  const differ = (DERIVED_MONEY[resource] ?? []).filter((f) => target[f] !== model[f])
  if (differ.length === 0) return undefined
  const shown = differ.map((f) => `${f} ${JSON.stringify(target[f])} (the model ${JSON.stringify(model[f])})`).join(', ')
  return { unplaced: `${what}: ${shown} with items [] (§2: the line items' shape and the rule of these totals are not shown)` }
}
