// Child-process entry: posts `count` forged deliveries to a webhook sink, `connections` at a time, each a
// plausible event about a record nobody created, under a fresh webhook-id and a signature that is not the
// secret's. Prints one JSON line when done: how many were answered, by status.
import { randomUUID } from 'node:crypto'
import { Agent, request } from 'node:http'

const [url, countText, connectionsText] = process.argv.slice(2)
const count = Number(countText)
const connections = Number(connectionsText ?? 16)
const agent = new Agent({ keepAlive: true, maxSockets: connections })
const statuses: Record<string, number> = {}

function forge(): Promise<void> {
  const id = randomUUID()
  const body = JSON.stringify({
    type: 'case.created',
    timestamp: new Date().toISOString(),
    data: { id, entityType: 'case', object: { id, subject: 'flood' }, changes: {} },
  })
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'webhook-id': `msg_${randomUUID().replace(/-/g, '')}`,
    'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    'webhook-signature': `v1,${Buffer.from(randomUUID()).toString('base64')}`,
  }
  return new Promise((resolve) => {
    const req = request(url!, { method: 'POST', headers, agent }, (res) => {
      res.resume()
      res.on('end', () => {
        statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1
        resolve()
      })
    })
    req.on('error', () => {
      statuses.error = (statuses.error ?? 0) + 1
      resolve()
    })
    req.end(body)
  })
}

let sent = 0
await Promise.all(
  Array.from({ length: connections }, async () => {
    while (sent < count) {
      sent++
      await forge()
    }
  }),
)
agent.destroy()
process.stdout.write(`${JSON.stringify({ statuses })}\n`)
