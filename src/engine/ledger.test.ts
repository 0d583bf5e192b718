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
})
