// Removes what a run created: at the end of every run, and from the journal after an interrupted one.
import type { KeyRole } from '../config/config.ts'
import type { Transport } from '../http/transport.ts'
import { cleanUp, Ledger, type Leftover } from './ledger.ts'

export function cleanUpWith(ledger: Ledger, transport: Transport): Promise<Leftover[]> {
  return cleanUp(ledger, async (path, keyRole) => {
    const role = transport.hasKey(keyRole as KeyRole) ? (keyRole as KeyRole) : 'main'
    const exchange = await transport.send({ method: 'DELETE', path, budgeted: false }, role, 'cleanup')
    return exchange.response?.status
  })
}

/** After an interrupt or a crashed worker: whatever the journal still lists. */
export function cleanUpJournal(journalFile: string, transport: Transport): Promise<Leftover[]> {
  return cleanUpWith(Ledger.fromJournal(journalFile), transport)
}
