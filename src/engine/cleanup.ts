// Removes what a run created: at the end of every run (also an interrupted one), within its own time bound.
import type { KeyRole } from '../config/config.ts'
import type { Transport } from '../http/transport.ts'
import { cleanUp, Ledger, type Leftover } from './ledger.ts'

/** Clean-up's own bound: past it the records still listed are reported as left behind, not waited for. */
export const CLEANUP_TIMEOUT_MS = 300_000

export function cleanUpWith(ledger: Ledger, transport: Transport, timeoutMs = CLEANUP_TIMEOUT_MS): Promise<Leftover[]> {
  const deadline = Date.now() + timeoutMs
  return cleanUp(ledger, async (path, keyRole) => {
    if (Date.now() >= deadline) throw new Error(`not removed: clean-up reached its bound of ${Math.round(timeoutMs / 1000)} s`)
    const role = transport.hasKey(keyRole as KeyRole) ? (keyRole as KeyRole) : 'main'
    const exchange = await transport.send({ method: 'DELETE', path, budgeted: false }, role, 'cleanup')
    return exchange.response?.status
  })
}

/** From a journal a crashed run left: whatever it still lists. */
export function cleanUpJournal(journalFile: string, transport: Transport, timeoutMs = CLEANUP_TIMEOUT_MS): Promise<Leftover[]> {
  return cleanUpWith(Ledger.fromJournal(journalFile), transport, timeoutMs)
}
