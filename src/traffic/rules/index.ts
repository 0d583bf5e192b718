// PLACEHOLDER (branch wp/traffic): three simple rules so the proxy, verify-traffic and their tests run end to
// end. The lead replaces this file with judge's src/traffic/rules/index.ts on merge (same export: TRAFFIC_RULES).
import { validate } from '../../schemas/registry.ts'
import type { TrafficRule } from '../types.ts'

const rateLimit429RetryAfter: TrafficRule = {
  id: 'traffic.rate-limits.429-retry-after',
  clauses: ['§8', '§7'],
  level: 'MUST',
  title: 'A 429 carries Retry-After (seconds to wait, or an HTTP date)',
  side: 'server',
  start: () => ({
    observe(exchange, ctx) {
      if (!ctx.operation || exchange.response?.status !== 429) return
      ctx.exercised()
      const value = exchange.response.headers['retry-after']
      if (value === undefined || !(/^\d+$/.test(value.trim()) || Number.isFinite(Date.parse(value)))) {
        ctx.violation({ message: `429 without a usable Retry-After (${value === undefined ? 'absent' : JSON.stringify(value)})`, expected: '§8: Retry-After (seconds to wait) on 429' })
      }
    },
  }),
}

const errorEnvelope: TrafficRule = {
  id: 'traffic.errors.envelope',
  clauses: ['§7'],
  level: 'MUST',
  title: 'A 4xx or 5xx answer carries the error envelope',
  side: 'server',
  start: () => ({
    observe(exchange, ctx) {
      const response = exchange.response
      if (!ctx.operation || !response || response.status < 400 || response.truncated) return
      ctx.exercised()
      const issues = validate('error', response.body)
      if (issues.length > 0) ctx.violation({ message: `${response.status} without the error envelope: ${issues.slice(0, 3).map((i) => `${i.path || '(root)'} ${i.message}`).join('; ')}`, expected: '§7: { error: { code, message, details? } }' })
    },
  }),
}

const requestCarriesKey: TrafficRule = {
  id: 'traffic.client.key-sent',
  clauses: ['§5.1'],
  level: 'MUST',
  title: 'A request carries its key as Authorization: Bearer',
  side: 'client',
  start: () => ({
    observe(exchange, ctx) {
      if (!ctx.operation) return
      ctx.exercised()
      if (!/^bearer\s+\S/i.test(exchange.request.headers.authorization ?? '')) ctx.violation({ message: `${exchange.request.method} ${ctx.operation.path} sent without Authorization: Bearer`, expected: '§5.1: header Authorization: Bearer <API_KEY>' })
    },
  }),
}

export const TRAFFIC_RULES: TrafficRule[] = [rateLimit429RetryAfter, errorEnvelope, requestCarriesKey]
