// A check's view of the transport: one key, and every exchange it makes recorded as that check's evidence.
import { CrmConfError } from '../errors.ts'
import type { KeyRole } from '../config/config.ts'
import type { Exchange } from './exchange.ts'
import type { Stopwatch } from './stopwatch.ts'
import type { ApiRequest, Query, Transport } from './transport.ts'

export class ApiResponse {
  constructor(readonly exchange: Exchange) {}

  get status(): number {
    return this.exchange.response!.status
  }

  get body(): any {
    return this.exchange.response!.body
  }

  header(name: string): string | undefined {
    return this.exchange.response!.headers[name.toLowerCase()]
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300
  }
}

export class ApiClient {
  constructor(
    private readonly transport: Transport,
    readonly role: KeyRole,
    private readonly record: (exchange: Exchange) => void,
    private readonly checkId?: string,
    /** The check's clock, held while a request waits for the rate limit. */
    private readonly stopwatch?: Stopwatch,
  ) {}

  /** Sends a request; a missing response (timeout, reset, refused) is a harness-level CrmConfError. */
  async send(req: ApiRequest): Promise<ApiResponse> {
    const exchange = await this.transport.send(req, this.role, this.checkId, this.stopwatch)
    this.record(exchange)
    if (!exchange.response) {
      const code = exchange.error?.code === 'CRMCONF_TIMEOUT' ? 'CRMCONF_TIMEOUT' : 'CRMCONF_NETWORK'
      throw new CrmConfError(code, `${req.method} ${exchange.request.url}: ${exchange.error?.message ?? 'no response'}`)
    }
    return new ApiResponse(exchange)
  }

  get(path: string, query?: Query, extra: Partial<ApiRequest> = {}): Promise<ApiResponse> {
    return this.send({ ...extra, method: 'GET', path, query })
  }

  post(path: string, body: unknown, extra: Partial<ApiRequest> = {}): Promise<ApiResponse> {
    return this.send({ ...extra, method: 'POST', path, body })
  }

  patch(path: string, body: unknown, extra: Partial<ApiRequest> = {}): Promise<ApiResponse> {
    return this.send({ ...extra, method: 'PATCH', path, body })
  }

  put(path: string, body: unknown, extra: Partial<ApiRequest> = {}): Promise<ApiResponse> {
    return this.send({ ...extra, method: 'PUT', path, body })
  }

  delete(path: string, extra: Partial<ApiRequest> = {}): Promise<ApiResponse> {
    return this.send({ ...extra, method: 'DELETE', path })
  }
}
