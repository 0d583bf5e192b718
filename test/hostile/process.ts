// Starts ./serve.ts in a child process and talks to it over IPC: the hostile server's addresses, the keys
// of the reference server behind it, and what the hostile server has received so far.
import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'
import type { FixtureName, KeyRole } from '../../src/config/config.ts'
import type { HostileMode, RedirectHit } from './server.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')

export interface HostileProcessReady {
  type: 'ready'
  baseUrls: Record<HostileMode, string>
  redirectOrigin: string
  /** The reference server itself, with no hostile server in front. */
  referenceBaseUrl: string
  reference: { keys: Record<KeyRole, string>; restrictedScopes: string[]; fixtures: Record<FixtureName, string>; webhookSecret: string }
}

export type HostileProcessMessage = { type: 'stats'; id: number } | { type: 'close' }

export interface HostileStats {
  received: Record<string, number>
  methods: Record<string, Record<string, number>>
  redirectHits: RedirectHit[]
}

export interface HostileProcess extends Omit<HostileProcessReady, 'type'> {
  stats(): Promise<HostileStats>
  close(): Promise<void>
}

export async function startHostileProcess(options: { diesAfter?: number; hugeBytes?: number } = {}): Promise<HostileProcess> {
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'bin', 'run-ts.mjs'), join(ROOT, 'test', 'hostile', 'serve.ts'), JSON.stringify(options)], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const ready = await new Promise<HostileProcessReady>((resolveReady, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`the hostile server process exited early (${code})`)))
    child.once('message', (message) => resolveReady(message as HostileProcessReady))
  })
  child.removeAllListeners('exit')
  let nextId = 0
  const { type: _type, ...info } = ready
  return {
    ...info,
    stats() {
      const id = ++nextId
      return new Promise((resolveStats) => {
        const onMessage = (message: { type: string; id?: number } & HostileStats) => {
          if (message.type !== 'stats' || message.id !== id) return
          child.off('message', onMessage)
          resolveStats({ received: message.received, methods: message.methods, redirectHits: message.redirectHits })
        }
        child.on('message', onMessage)
        child.send({ type: 'stats', id } satisfies HostileProcessMessage)
      })
    },
    close() {
      if (child.exitCode !== null) return Promise.resolve()
      return new Promise((resolveClose) => {
        child.once('exit', () => resolveClose())
        child.send({ type: 'close' } satisfies HostileProcessMessage)
        // A child that does not stop within a few seconds is stopped.
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref()
      })
    },
  }
}
