import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cleanUp, Ledger } from './ledger.ts'

describe('Ledger', () => {
  it('survives an interrupted run through its journal', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'ledger.jsonl')
    const ledger = new Ledger(file)
    ledger.track({ resource: 'account', id: 'a1', deletePath: '/accounts/a1' })
    ledger.track({ resource: 'contact', id: 'c1', deletePath: '/contacts/c1' })
    ledger.track({ resource: 'order', id: 'o1', reason: 'orders cannot be deleted (§4.2)' })
    ledger.forget('c1')

    const revived = Ledger.fromJournal(file)
    const deleted: string[] = []
    const leftovers = await cleanUp(revived, async (path) => {
      deleted.push(path)
      return 204
    })
    expect(deleted).toEqual(['/accounts/a1'])
    expect(leftovers).toEqual([{ resource: 'order', id: 'o1', reason: 'orders cannot be deleted (§4.2)' }])
    expect(revived.pending().map((e) => e.id)).toEqual(['o1'])
  })

  it('reports deletes that fail', async () => {
    const ledger = new Ledger()
    ledger.track({ resource: 'account', id: 'a1', deletePath: '/accounts/a1' })
    const leftovers = await cleanUp(ledger, async () => 500)
    expect(leftovers[0]).toMatchObject({ id: 'a1', reason: 'delete answered 500' })
  })

  it('deletes side by side, and tries a delete refused while its child still existed again once the rest are gone', async () => {
    const ledger = new Ledger()
    ledger.track({ resource: 'account', id: 'a1', deletePath: '/accounts/a1' })
    for (let i = 1; i <= 5; i++) ledger.track({ resource: 'contact', id: `c${i}`, deletePath: `/contacts/c${i}` })
    const gone = new Set<string>()
    let inFlight = 0
    let most = 0
    const leftovers = await cleanUp(
      ledger,
      async (path) => {
        most = Math.max(most, ++inFlight)
        await new Promise((resolve) => setTimeout(resolve, 10))
        inFlight--
        // A server that refuses to delete an account while a contact of it is still there.
        if (path === '/accounts/a1' && gone.size < 5) return 409
        gone.add(path)
        return 204
      },
      4,
    )
    expect(most).toBe(4)
    expect(leftovers).toEqual([])
    expect(ledger.pending()).toEqual([])
  })
})
