// Rules every delivery of the run obeys (§6.3–§6.6), one check per rule so a failure names it. They run last,
// when the correlation checks have had their deliveries, and judge the deliveries the server sent about the
// run's records (deliveries.ts attribute): whatever else reached the sink (a stranger's forgeries, replays,
// events of other records) is counted as noise and never judged. Alone (`--only`), each provokes the run's probe
// case itself. A delivery refused for one rule never reaches the next (the verifier's order), so each rule is
// judged on the deliveries that reached it.
import { CheckFailed, defineCheck } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, Delivery } from '../../src/checks/index.ts'
import { attribute, brokenRule, kindOf, reached, summary, tally, type Rule } from './deliveries.ts'
import { probeCase, probeDelivery, probeUpdate, settle, watchesDeliveries } from './probe.ts'

const area = 'webhooks'
const SHOWN = 3

/** Every delivery of the run, once the probe case's event has come (or the wait for it ended) and the sink is quiet. */
async function runDeliveries(ctx: CheckContext, options: { update?: boolean; signedElsewhere?: boolean } = {}): Promise<readonly Delivery[]> {
  const sink = await ctx.session.sink()
  try {
    const probe = await probeCase(ctx)
    if (options.update) await probeUpdate(ctx, probe)
    await probeDelivery(ctx, probe)
  } catch (error) {
    if (!(error instanceof CheckFailed)) throw error
    ctx.note(`the probe case could not be created (${error.message}); judging the deliveries of the rest of the run`)
  }
  await settle(sink)
  const attribution = attribute(sink)
  const { noise, dropped } = attribution
  const counted = options.signedElsewhere ? [...attribution.counted, ...attribution.signedElsewhere] : attribution.counted
  const ignored = Object.values(noise).reduce((n, k) => n + k, 0)
  if (ignored > 0) ctx.observe('noise', noise)
  if (dropped > 0) ctx.observe('dropped', dropped)
  if (counted.length === 0) {
    ctx.skip(
      `no webhook delivery about a record of this run reached the sink at ${sink.url}: the server may emit no event for the operations the run made (§6 does not say which do), or it delivers elsewhere` +
        (ignored > 0 ? `; ${ignored} other request(s) were set aside as noise ${JSON.stringify(noise)}` : ''),
    )
  }
  ctx.observe('deliveries', counted.length)
  return counted
}

/**
 * What every check of this file declares, for one reason: it judges all the deliveries of the run, so it starts
 * once every other check has ended (phase last), and alone it provokes the probe case and waits once for its event.
 */
const JUDGES_THE_RUNS_DELIVERIES = { ...watchesDeliveries(1), phase: 'last' } as const

/**
 * The run's deliveries (the probe case updated once, so one record has two events) whose event the sink
 * verified and read, and that are `usable`; skips when there are none, saying what `cannot` be judged.
 */
async function verifiedEvents(ctx: CheckContext, cannot: string, usable: (d: Delivery) => boolean = () => true): Promise<Delivery[]> {
  const deliveries = await runDeliveries(ctx, { update: true })
  const verified = deliveries.filter((d) => d.event !== undefined && usable(d))
  if (verified.length === 0) ctx.skip(`none of the ${deliveries.length} deliveries verified, so ${cannot} (see the other webhooks.delivery.* checks)`)
  return verified
}

interface RuleCheck {
  rule: Rule
  id: string
  clauses: string[]
  title: string
  /** Completes "N of M deliveries …". */
  what: string
  expected: string
  /** Only these deliveries say something about the rule (default: all that reached it). */
  concerns?: (d: Delivery) => boolean
  /** Also judge deliveries signed with the secret that name no record of the run (a rule that needs no record). */
  signedElsewhere?: boolean
}

/** The implementer mistakes the sink diagnosed (verify.ts diagnose), or else the first refusal's detail. */
function explanation(offending: Delivery[]): string {
  const mistakes = [...new Set(offending.flatMap((d) => d.mistakes ?? []).map((m) => m.message))]
  return mistakes.length > 0 ? mistakes.join('; ') : (offending[0]!.detail ?? '').replace(/ \(§[\d.]+\)$/, '')
}

function ruleCheck(spec: RuleCheck): CheckDefinition {
  return defineCheck({
    id: spec.id,
    clauses: spec.clauses,
    level: 'MUST',
    area,
    title: spec.title,
    ...JUDGES_THE_RUNS_DELIVERIES,
    async run(ctx) {
      const deliveries = await runDeliveries(ctx, { signedElsewhere: spec.signedElsewhere })
      const judged = deliveries.filter((d) => reached(d, spec.rule) && (spec.concerns?.(d) ?? true))
      if (judged.length === 0) {
        const refusals = tally(deliveries.filter((d) => !reached(d, spec.rule)).map((d) => d.reason))
        ctx.skip(
          `none of the ${deliveries.length} deliveries can be judged on this rule${Object.keys(refusals).length ? `; refused earlier: ${JSON.stringify(refusals)}` : ''}`,
        )
      }
      ctx.observe('judged', judged.length)
      const offending = judged.filter((d) => brokenRule(d) === spec.rule)
      if (offending.length > 0) {
        ctx.fail(`${offending.length} of ${judged.length} deliveries ${spec.what} (${spec.clauses[0]}): ${explanation(offending)}`, {
          expected: spec.expected,
          exchanges: [],
          data: { deliveries: offending.slice(0, SHOWN).map(summary), kinds: tally(offending.map(kindOf)) },
        })
      }
    },
  })
}

/** JSON with sorted keys: a retry that re-serialises the same event is still the same event. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/**
 * §6.4 "unique per event": two distinct events never share a webhook-id; retries of one event keep it. An event
 * is told by its kind, record and changes; its body timestamp is left out, in case a retry restamps it.
 */
function eventIdentity(d: Delivery): string {
  const { type, data } = d.event!
  return canonical([type, data.id, data.changes])
}

const uniqueId = defineCheck({
  id: 'webhooks.delivery.unique-id',
  clauses: ['§6.4', '§6.6'],
  level: 'MUST',
  area,
  title: 'Distinct events never share a webhook-id',
  ...JUDGES_THE_RUNS_DELIVERIES,
  async run(ctx) {
    const verified = await verifiedEvents(ctx, 'no event can be told from another', (d) => d.webhookId !== undefined)
    const byId = new Map<string, Delivery[]>()
    for (const d of verified) byId.set(d.webhookId!, [...(byId.get(d.webhookId!) ?? []), d])
    ctx.observe('webhookIds', byId.size)
    ctx.observe('repeats', verified.length - byId.size)
    const shared = [...byId.entries()].filter(([, ds]) => new Set(ds.map(eventIdentity)).size > 1)
    if (shared.length > 0) {
      const [id, ds] = shared[0]!
      const events = [...new Map(ds.map((d) => [eventIdentity(d), `${d.event!.type} ${d.event!.data.id}`])).values()]
      ctx.fail(`${shared.length} webhook-id(s) carry more than one event: ${JSON.stringify(id)} carries ${events.join(', ')} (§6.4: unique per event)`, {
        expected: 'a webhook-id of its own for every event, so that a receiver ignoring repeats (§6.6) never drops a new event',
        exchanges: [],
        data: { deliveries: ds.slice(0, SHOWN).map(summary), sharedIds: shared.slice(0, 10).map(([i]) => i) },
      })
    }
  },
})

/**
 * The entity a name stands for: lower case, without separators, the spec's second names folded onto the first
 * (§2 "opportunity (deal)", "comment (case comment)", "activity (timeline entry)", "article (knowledge base)",
 * "message (chat)").
 */
function entityName(name: string): string {
  const bare = name.toLowerCase().replace(/[^a-z0-9]/g, '')
  const aliases: Record<string, string> = { deal: 'opportunity', casecomment: 'comment', timelineentry: 'activity', knowledgebase: 'article', chat: 'message' }
  return aliases[bare] ?? bare
}

/**
 * §6.2 "Event kinds are named <entity>.<action>" with §6.3's `data.entityType` naming that entity: the kind's first
 * segment and entityType name the same entity (the dotted form itself is the schema's, webhooks.delivery.body-shape).
 */
export function kindNamesEntity(kind: string, entityType: string): boolean {
  const dot = kind.indexOf('.')
  return dot > 0 && entityName(kind.slice(0, dot)) === entityName(entityType)
}

const kindEntity = defineCheck({
  id: 'webhooks.delivery.kind-entity',
  clauses: ['§6.2', '§6.3'],
  level: 'MUST',
  area,
  title: "Every delivery's type is <entity>.<action> with the entity its data.entityType names",
  ...JUDGES_THE_RUNS_DELIVERIES,
  async run(ctx) {
    const typed = await verifiedEvents(ctx, 'no event kind can be read')
    const kinds = tally(typed.map((d) => `${d.event!.type} (${d.event!.data.entityType})`))
    ctx.observe('kinds', kinds)
    const offending = typed.filter((d) => !kindNamesEntity(String(d.event!.type), String(d.event!.data.entityType)))
    if (offending.length > 0) {
      const shown = [...new Set(offending.map((d) => `${JSON.stringify(d.event!.type)} for entityType ${JSON.stringify(d.event!.data.entityType)}`))]
      ctx.fail(
        `${offending.length} of ${typed.length} deliveries carry a type whose entity is not their data.entityType: ${shown.slice(0, SHOWN).join(', ')} (§6.2)`,
        {
          expected: 'type "<entity>.<action>" naming the entity of data.entityType, as case.created is a case event (§6.2, §6.3)',
          exchanges: [],
          data: { deliveries: offending.slice(0, SHOWN).map(summary), kinds },
        },
      )
    }
  },
})

export const ruleChecks: CheckDefinition[] = [
  ruleCheck({
    rule: 'headers',
    id: 'webhooks.delivery.headers',
    clauses: ['§6.4'],
    title: 'Every delivery carries webhook-id, webhook-timestamp and webhook-signature, once each',
    what: 'lack a webhook-* header or repeat one',
    expected: 'webhook-id, webhook-timestamp and webhook-signature on every delivery (§6.4)',
  }),
  ruleCheck({
    rule: 'timestamp',
    id: 'webhooks.delivery.timestamp',
    clauses: ['§6.4', '§6.6', '§8'],
    title: "Every delivery's webhook-timestamp is the current time in integer Unix seconds, within 300 s",
    what: 'have a webhook-timestamp that is not current Unix seconds',
    expected: "webhook-timestamp: integer Unix seconds (§6.4), within 300 s of the receiver's clock (§6.6, §8)",
  }),
  ruleCheck({
    rule: 'signature',
    id: 'webhooks.delivery.signature',
    clauses: ['§6.5', '§6.1'],
    title: 'Every delivery is signed v1,<base64 HMAC-SHA256> of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed on the decoded whsec_ secret',
    what: 'fail the signature',
    expected:
      'a webhook-signature entry v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>"> keyed on the base64-decoded secret after whsec_ (§6.5)',
  }),
  ruleCheck({
    rule: 'body-shape',
    id: 'webhooks.delivery.body-shape',
    clauses: ['§6.3', '§6.2'],
    title: 'Every delivery\'s body is JSON { type: "<entity>.<action>", timestamp, data: { id, entityType, object, changes } }',
    what: 'have a body without the §6.3 shape',
    // A body too broken to name a record is still the server's when it is signed with the secret.
    signedElsewhere: true,
    expected:
      '{ type: string, timestamp: string, data: { id: string, entityType: string, object: object, changes: object } } (§6.3); any <entity>.<action> kind (§6.2)',
  }),
  ruleCheck({
    rule: 'entity-type',
    id: 'webhooks.case-events.entity-type',
    clauses: ['§6.3'],
    title: 'Every case event carries data.entityType "case"',
    what: 'are case events whose data.entityType is not "case"',
    expected: 'data.entityType "case" for a case event (§6.3)',
    concerns: (d) => kindOf(d)?.startsWith('case.') === true,
  }),
  uniqueId,
  kindEntity,
]
