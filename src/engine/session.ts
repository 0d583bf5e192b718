// One run's shared state: the configuration, the transport, the ledger, the shared fixtures, the log of
// every exchange, and (when no CRM_BASE_URL is set) the embedded reference server it runs against.
import { join } from 'node:path'
import type { ResolvedConfig } from '../config/config.ts'
import type { Profile } from '../checks/types.ts'
import type { ServerConditions } from '../reference/conditions.ts'
import type { Exchange } from '../http/exchange.ts'
import type { Redactor } from '../http/redact.ts'
import { redactorFor, transportFor } from '../http/for-config.ts'
import type { Transport } from '../http/transport.ts'
import type { Sink } from '../webhooks/sink.ts'
import { Ledger } from './ledger.ts'

export interface EmbeddedOptions {
  variant?: string
  faults?: string[]
  /** The main key's per-minute limit on the embedded server (the spec's default is 600). */
  rateLimitPerMinute?: number
  basePath?: '/v1' | '/api/v1'
  /** Deployment conditions the embedded server plays (limiter shape, response delay, idle close, relay). */
  conditions?: ServerConditions
  /** Lists show a write only this long after it (a search index); reads by id at once. */
  listLagMs?: number
  /** Reach the embedded server through this forward proxy (the proxy condition of self-validation); the environment's proxy never applies to it. */
  proxy?: ResolvedConfig['proxy']
}

export interface SessionOptions {
  config: ResolvedConfig
  runId: string
  /** Where the ledger journal is written; none: kept in memory only. */
  journalDir?: string
  embedded?: EmbeddedOptions
}

interface EmbeddedServer {
  baseUrl: string
  setWebhookTarget(url: string | undefined): void
  close(): Promise<void>
}

/** Prefix of every run tag; `sweep` looks for it. */
export const RUN_TAG_PREFIX = 'crmconf-run-'

export class RunSession {
  readonly capabilities: Record<string, unknown> = {}
  private readonly memos = new Map<string, Promise<unknown>>()
  private sinkPromise?: Promise<Sink>

  private constructor(
    readonly config: ResolvedConfig,
    readonly baseUrl: string,
    readonly runId: string,
    readonly transport: Transport,
    readonly ledger: Ledger,
    readonly redactor: Redactor,
    readonly embedded: (EmbeddedOptions & { server: EmbeddedServer }) | undefined,
    /** Every exchange of the run, in order (redacted). */
    readonly exchanges: Exchange[],
  ) {}

  static async open(options: SessionOptions): Promise<RunSession> {
    let config = options.config
    let embedded: (EmbeddedOptions & { server: EmbeddedServer }) | undefined
    if (config.baseUrl === undefined) {
      const { startReferenceServer } = await import('../reference/index.ts')
      const server = await startReferenceServer({
        variant: options.embedded?.variant as never,
        faults: options.embedded?.faults,
        rateLimitPerMinute: options.embedded?.rateLimitPerMinute,
        basePath: options.embedded?.basePath,
        conditions: options.embedded?.conditions,
        listLagMs: options.embedded?.listLagMs,
      })
      embedded = { ...options.embedded, server }
      config = {
        ...config,
        baseUrl: server.baseUrl,
        keys: { ...server.keys, ...config.keys },
        restrictedScopes: config.restrictedScopes ?? server.restrictedScopes,
        roleLimitedDenied: config.roleLimitedDenied ?? server.roleLimitedDenied,
        fixtures: { ...server.fixtures, ...config.fixtures },
        webhookSecret: config.webhookSecret ?? server.webhookSecret,
        // The embedded server is this process's own loopback listener: never reached through the environment's
        // proxy, only through one the caller puts in front on purpose.
        proxy: options.embedded?.proxy ?? {},
      }
    }
    const redactor = redactorFor(config)
    const exchanges: Exchange[] = []
    const transport = transportFor(config, { redactor, onExchange: (exchange) => exchanges.push(exchange) })
    const ledger = new Ledger(options.journalDir ? join(options.journalDir, 'ledger.jsonl') : undefined)
    const session = new RunSession(config, config.baseUrl!, options.runId, transport, ledger, redactor, embedded, exchanges)
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
