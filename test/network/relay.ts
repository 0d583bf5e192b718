// A TCP relay for the connection tests: forwards every connection to `target`, each direction `delayMs` late
// (so that a server's idle close and a client's next request really cross on loopback, as across a network),
// and records the remote port of every connection it accepts.
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net'

export interface Relay {
  port: number
  /** Remote ports of the connections accepted, in order. */
  clientPorts: number[]
  close(): Promise<void>
}

function delayedPipe(from: Socket, to: Socket, delayMs: number): void {
  const later = (fn: () => void) => (delayMs > 0 ? setTimeout(fn, delayMs) : setImmediate(fn))
  from.on('data', (chunk: Buffer) => later(() => !to.destroyed && to.write(chunk)))
  from.on('end', () => later(() => !to.destroyed && to.end()))
  from.on('close', () => later(() => to.destroy()))
  from.on('error', () => {})
}

export async function startRelay(target: { host: string; port: number }, delayMs: number): Promise<Relay> {
  const sockets = new Set<Socket>()
  const clientPorts: number[] = []
  const server: Server = createServer((client) => {
    clientPorts.push(client.remotePort ?? 0)
    const upstream = createConnection({ host: target.host, port: target.port })
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
    }
    delayedPipe(client, upstream, delayMs)
    delayedPipe(upstream, client, delayMs)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    clientPorts,
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
