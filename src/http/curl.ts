// A curl line that replays an exchange. Keys appear as shell variables, never as values.
import type { RecordedRequest } from './exchange.ts'
import { KEY_VARIABLES, type KeyRole } from '../config/config.ts'

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`

export function curlFor(request: RecordedRequest, keyRole: string): string {
  const parts = ['curl', '-sS', '-i', '-X', request.method, quote(request.url)]
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === 'authorization' && value.includes('<redacted')) {
      const variable = KEY_VARIABLES[keyRole as KeyRole] ?? 'CRM_API_KEY'
      parts.push('-H', `"Authorization: Bearer $${variable}"`)
    } else if (!['content-length', 'host', 'connection'].includes(name.toLowerCase())) {
      parts.push('-H', quote(`${name}: ${value}`))
    }
  }
  if (request.body !== undefined) {
    parts.push('--data-raw', quote(typeof request.body === 'string' ? request.body : JSON.stringify(request.body)))
  }
  return parts.join(' ')
}
