// The sink's memory of each webhook-id it answered: how many attempts of the server's it has seen, its last
// answer, and their fingerprints, to tell a retry (§6.7) from a resend and from a byte-identical replay.
import type { AttemptKind } from './sink-types.ts'

/** Distinct (timestamp, body) pairs remembered per webhook-id, to tell a byte-identical replay. */
const MAX_FINGERPRINTS = 16
interface IdHistory {
  /** Attempts of the server's (first, retries, resends), replays not counted. */
  attempts: number
  /** The sink's answer to the latest of them. */
  lastStatus: number
  /** `<webhook-timestamp>.<body SHA-256>` of each. */
  fingerprints: Set<string>
}

/** Per webhook-id, at most `max` ids (the least recently answered go first). */
export class AttemptHistory {
  private readonly histories = new Map<string, IdHistory>()

  constructor(private readonly max: number) {}

  /** How an authentic attempt relates to the earlier ones of its webhook-id (see AttemptKind). */
  kind(webhookId: string, fingerprint: string): AttemptKind {
    const history = this.histories.get(webhookId)
    if (history === undefined) return 'first'
    if (history.lastStatus < 200 || history.lastStatus >= 300) return 'retry'
    return history.fingerprints.has(fingerprint) ? 'replay' : 'again'
  }

  /** Attempts of the server's seen with this webhook-id (0 for a new one). */
  attempts(webhookId: string): number {
    return this.histories.get(webhookId)?.attempts ?? 0
  }

  /** Remembers the sink's answer to an attempt of the server's (never to a replay, which anyone can send). */
  remember(webhookId: string, fingerprint: string, status: number): number {
    const history = this.histories.get(webhookId) ?? { attempts: 0, lastStatus: status, fingerprints: new Set<string>() }
    history.attempts++
    history.lastStatus = status
    if (history.fingerprints.size < MAX_FINGERPRINTS) history.fingerprints.add(fingerprint)
    this.histories.delete(webhookId)
    this.histories.set(webhookId, history)
    if (this.histories.size > this.max) this.histories.delete(this.histories.keys().next().value!)
    return history.attempts
  }
}
