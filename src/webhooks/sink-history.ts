// The sink's memory of each webhook-id it answered: how many attempts of the server's it has seen, its last
// answer, and their fingerprints with the answer each got, to tell a retry (§6.7) from a resend and from a
// byte-identical replay. Only the signer can produce a new (webhook-timestamp, body) pair that verifies, so an
// attempt is the server's when its fingerprint is new for its webhook-id; a byte-identical copy is a replay
// whatever the sink answered before, since anyone who saw the attempt in transit can post it again (Standard
// Webhooks: a retry is signed anew with a current timestamp). A server that retries within the second of its
// first attempt sends exactly such a copy (the timestamp is in whole seconds, §6.4): the sink answers every copy
// as it answered the attempt copied (`answerOf`), so a sender that retries keeps retrying until an attempt signed
// anew proves it. Copies are counted per webhook-id (`copies`), one number each, never kept.
import type { AttemptKind } from './sink-types.ts'

/** Distinct (timestamp, body) pairs remembered per webhook-id, to tell a byte-identical replay. */
const MAX_FINGERPRINTS = 16
interface IdHistory {
  /** Attempts of the server's (first, retries, resends), replays not counted. */
  attempts: number
  /** The sink's answer to the latest of them. */
  lastStatus: number
  /** `<webhook-timestamp>.<body SHA-256>` of each, with the status the sink answered it. */
  fingerprints: Map<string, number>
  /** Byte-identical copies of an earlier attempt received since (replays, or the server resending unchanged). */
  copies: number
}

/** Per webhook-id, at most `max` ids (the least recently answered go first). */
export class AttemptHistory {
  private readonly histories = new Map<string, IdHistory>()

  constructor(private readonly max: number) {}

  /** How an authentic attempt relates to the earlier ones of its webhook-id (see AttemptKind). */
  kind(webhookId: string, fingerprint: string): AttemptKind {
    const history = this.histories.get(webhookId)
    if (history === undefined) return 'first'
    if (history.fingerprints.has(fingerprint)) return 'replay'
    return history.lastStatus < 200 || history.lastStatus >= 300 ? 'retry' : 'again'
  }

  /** The status the sink answered the attempt with this fingerprint (undefined when it was not seen). */
  answerOf(webhookId: string, fingerprint: string): number | undefined {
    return this.histories.get(webhookId)?.fingerprints.get(fingerprint)
  }

  /** Counts a byte-identical copy of an earlier attempt of this webhook-id (see kind). */
  copied(webhookId: string): void {
    const history = this.histories.get(webhookId)
    if (history !== undefined) history.copies++
  }

  /** Byte-identical copies of earlier attempts of this webhook-id received so far. */
  copies(webhookId: string): number {
    return this.histories.get(webhookId)?.copies ?? 0
  }

  /** Attempts of the server's seen with this webhook-id (0 for a new one). */
  attempts(webhookId: string): number {
    return this.histories.get(webhookId)?.attempts ?? 0
  }

  /** Remembers the sink's answer to an attempt of the server's (never to a replay, which anyone can send). */
  remember(webhookId: string, fingerprint: string, status: number): number {
    const history = this.histories.get(webhookId) ?? { attempts: 0, lastStatus: status, fingerprints: new Map<string, number>(), copies: 0 }
    history.attempts++
    history.lastStatus = status
    if (history.fingerprints.size < MAX_FINGERPRINTS) history.fingerprints.set(fingerprint, status)
    this.histories.delete(webhookId)
    this.histories.set(webhookId, history)
    if (this.histories.size > this.max) this.histories.delete(this.histories.keys().next().value!)
    return history.attempts
  }
}
