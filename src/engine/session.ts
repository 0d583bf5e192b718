// One run's shared state: the configuration, the transport, the ledger, the shared fixtures, the log of
// every exchange and the webhook sink, against a target resolved before the session opens (src/run/target.ts:
// the user's server, or the embedded reference server started there). The engine never starts a server.
import { join } from 'node:path'
import type { CheckSession, Oracle } from '../checks/types.ts'
import type { ResolvedConfig } from '../config/config.ts'
import type { Exchange } from '../http/exchange.ts'
import type { Redactor } from '../http/redact.ts'
import { redactorFor, transportFor } from '../http/for-config.ts'
import type { Transport } from '../http/transport.ts'
import { RUN_TAG_PREFIX, type Profile } from '../vocabulary.ts'
import type { Sink } from '../webhooks/sink.ts'
import { Ledger } from './ledger.ts'

export { RUN_TAG_PREFIX } from '../vocabulary.ts'

/** What the session needs of an embedded server it tests: where it is, where to send webhooks, how to stop it. */
export interface EmbeddedServer {
  baseUrl: string
  setWebhookTarget(url: string | undefined): void
  close(): Promise<void>
}

/** Where a run sends its requests, resolved before its session opens; the session closes it. */
export interface RunTarget {
  /** The run's configuration: the user's, completed with the embedded server's keys, fixtures and secret when it runs. */
  config: ResolvedConfig & { baseUrl: string }
  /** The embedded server, when the run tests it, with the variant and faults it plays (a replay names them). */
  embedded?: { variant?: string; faults?: string[]; server: EmbeddedServer }
}

export interface SessionOptions {
  target: RunTarget
  runId: string
  /** Where the ledger journal is written; none: kept in memory only. */
  journalDir?: string
  /** Opens a fresh model of the contract for the explorer (the run path's src/run/oracle.ts); the engine never starts one itself. */
  oracle?: () => Promise<Oracle>
}

export class RunSession implements CheckSession {
  readonly capabilities: Record<string, unknown> = {}
  private readonly memos = new Map<string, Promise<unknown>>()
  private sinkPromise?: Promise<Sink>
  oracle?: () => Promise<Oracle>

  private constructor(
    readonly config: ResolvedConfig,
    readonly baseUrl: string,
    readonly runId: string,
    readonly transport: Transport,
    readonly ledger: Ledger,
    readonly redactor: Redactor,
    readonly embedded: RunTarget['embedded'],
    /** Every exchange of the run, in order (redacted). */
    readonly exchanges: Exchange[],
  ) {}

  static async open(options: SessionOptions): Promise<RunSession> {
    const { config, embedded } = options.target
    try {
      return await RunSession.start(options, config, embedded)
    } catch (error) {
      await embedded?.server.close()
      throw error
    }
  }

  private static async start(options: SessionOptions, config: RunTarget['config'], embedded: RunTarget['embedded']): Promise<RunSession> {
    const redactor = redactorFor(config)
    const exchanges: Exchange[] = []
    const transport = transportFor(config, { redactor, onExchange: (exchange) => exchanges.push(exchange) })
    const ledger = new Ledger(options.journalDir ? join(options.journalDir, 'ledger.jsonl') : undefined)
    const session = new RunSession(config, config.baseUrl, options.runId, transport, ledger, redactor, embedded, exchanges)
    session.oracle = options.oracle
    // The sink listens from the start, so the webhook checks judge the events of every area, not only their
    // own. A sink that cannot start is reported by the webhook checks (they await the same promise).
    if (config.webhookSecret) await session.sink().catch(() => undefined)
    return session
  }

  get profile(): Profile {
    return this.config.profile
  }

  get seed(): number {
    return this.config.seed
  }

  /** The tag every record of this run carries where the resource has tags. */
  get runTag(): string {
    return `${RUN_TAG_PREFIX}${this.runId}`
  }

  /** A shared fixture, created once per run however many checks ask for it at once. */
  memo<T>(key: string, factory: () => Promise<T>): Promise<T> {
    let promise = this.memos.get(key) as Promise<T> | undefined
    if (!promise) {
      promise = factory()
      this.memos.set(key, promise)
      // A failed fixture is not cached: the next check may try again and report its own evidence.
      promise.catch(() => this.memos.delete(key))
    }
    return promise
  }

  /** The webhook sink, started on first use, and pointed at by the embedded server. */
  sink(): Promise<Sink> {
    this.sinkPromise ??= (async () => {
      const { startSink } = await import('../webhooks/sink.ts')
      const { createdByRun } = await import('../webhooks/run-records.ts')
      const sink = await startSink({
        host: this.config.sinkHost,
        port: this.embedded ? 0 : this.config.sinkPort,
        secret: this.config.webhookSecret!,
        // Ties deliveries to the records this run created: what names none of them is noise (src/webhooks/sink.ts).
        runRecords: createdByRun(this.exchanges),
      })
      this.embedded?.server.setWebhookTarget(sink.url)
      return sink
    })()
    return this.sinkPromise
  }

  async close(): Promise<void> {
    if (this.sinkPromise) await (await this.sinkPromise.catch(() => undefined))?.close()
    await this.transport.close()
    await this.embedded?.server.close()
  }
}
