import { expect, test } from 'vitest'
import type { CheckDefinition, Level } from '../checks/types.ts'
import { makeCheckResult } from '../report/test-fixtures.ts'
import { amendRows, ROW_AMENDMENTS, type RowContext } from './row-pipeline.ts'

const check = (id: string, level: Level, keys?: CheckDefinition['keys']): CheckDefinition => ({
  id,
  level,
  clauses: ['§4.1'],
  area: id.split('.')[0]!,
  title: id,
  keys,
  run: async () => {},
})
const CATALOGUE = [check('a.scoped', 'MUST', ['restricted']), check('a.fails', 'MUST'), check('a.silent', 'SHOULD')]
const CONTEXT: RowContext = { catalogue: CATALOGUE, target: { seed: 7, profile: 'full' }, startedAt: new Date('2026-06-01T00:00:00Z') }

test('the amendments run in their order: key warnings, certifying rows, waivers', () => {
  expect(ROW_AMENDMENTS.map((a) => a.name)).toEqual(['key warnings', 'certifying rows', 'waivers'])
})

test('without warnings, certification or waivers the rows are the run’s', () => {
  const rows = [makeCheckResult({ id: 'a.fails', status: 'failed' })]
  expect(amendRows(rows, CONTEXT)).toEqual({ rows })
})

test('each amendment applied, and the input left as it was', () => {
  const rows = [makeCheckResult({ id: 'a.scoped', status: 'skipped' }), makeCheckResult({ id: 'a.fails', status: 'failed' })]
  const before = structuredClone(rows)
  const { rows: amended, waiverOutcome } = amendRows(rows, {
    ...CONTEXT,
    keyWarnings: [{ role: 'restricted', message: 'CRM_API_KEY_RESTRICTED answered 401' }],
    certification: true,
    waivers: [{ check: 'a.fails', reason: 'CRM-12' }],
    harnessError: 'boom',
  })
  expect(rows).toEqual(before)
  expect(amended.map((r) => [r.id, r.status])).toEqual([
    ['a.scoped', 'skipped'],
    ['a.fails', 'failed'],
    ['a.silent', 'error'],
  ])
  expect(amended[0]!.notes).toContain('configuration warning: CRM_API_KEY_RESTRICTED answered 401')
  expect(amended[1]!.waived).toEqual({ reason: 'CRM-12' })
  expect(amended[2]!.message).toMatch(/first harness error of the run: boom/)
  expect(waiverOutcome?.applied.map((w) => w.check)).toEqual(['a.fails'])
})
