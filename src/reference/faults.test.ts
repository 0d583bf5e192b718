import { describe, expect, test } from 'vitest'
import { AUTH_FAULTS } from './auth.ts'
import { ROUTING_FAULTS } from './app.ts'
import { IDEMPOTENCY_FAULTS } from './idempotency.ts'
import { FAULTS, NO_FAULTS, faultSwitches, switchedOn, type FaultId } from './faults.ts'
import { SERVER_FAULTS } from './index.ts'
import { MODEL_FAULTS } from './model-kit.ts'
import { LIST_FAULTS } from './pagination.ts'
import { GATE_FAULTS } from './routes/gate.ts'
import { READ_FAULTS } from './routes/reads.ts'
import { REQUEST_FAULTS } from './routes/request.ts'
import { RESPONSE_FAULTS } from './routes/responses.ts'
import { SPECIAL_FAULTS } from './routes/special.ts'
import { WRITE_FAULTS } from './routes/writes.ts'
import { WEBHOOK_FAULTS } from './webhooks.ts'

/** Every module that plays faults, with the switches it reads. */
const PLAYED: Record<string, readonly FaultId[]> = {
  'app.ts': ROUTING_FAULTS,
  'auth.ts': AUTH_FAULTS,
  'idempotency.ts': IDEMPOTENCY_FAULTS,
  'index.ts': SERVER_FAULTS,
  'models.ts (model-kit.ts)': MODEL_FAULTS,
  'pagination.ts': LIST_FAULTS,
  'routes/gate.ts': GATE_FAULTS,
  'routes/reads.ts': READ_FAULTS,
  'routes/request.ts': REQUEST_FAULTS,
  'routes/responses.ts': RESPONSE_FAULTS,
  'routes/special.ts': SPECIAL_FAULTS,
  'routes/writes.ts': WRITE_FAULTS,
  'webhooks.ts': WEBHOOK_FAULTS,
}

describe('fault switches', () => {
  test('every fault of the catalogue is played by some module (a fault no module reads would test nothing)', () => {
    const played = new Set(Object.values(PLAYED).flat())
    expect(FAULTS.map((f) => f.id).filter((id) => !played.has(id))).toEqual([])
  })

  test('fault ids are unique', () => {
    expect(new Set(FAULTS.map((f) => f.id)).size).toBe(FAULTS.length)
  })

  test('switches are on for the ids named, off otherwise; an unknown id is an error', () => {
    const on = faultSwitches(['rate-limits.no-429', 'auth.any-scheme'])
    expect(switchedOn(on)).toEqual(['auth.any-scheme', 'rate-limits.no-429'])
    expect(switchedOn(NO_FAULTS)).toEqual([])
    expect(() => faultSwitches(['no.such-fault'])).toThrow(/Unknown fault id\(s\): no\.such-fault/)
  })
})
