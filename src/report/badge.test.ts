import { expect, it } from 'vitest'
import { renderBadge } from './badge.ts'
import { makeCheckResult, makeReport } from './test-fixtures.ts'

it('is a shields.io endpoint: verdict and passed/total, coloured by verdict', () => {
  const compliant = makeReport(Array.from({ length: 212 }, () => makeCheckResult()))
  expect(renderBadge(compliant)).toEqual({ schemaVersion: 1, label: 'CRM API conformance', message: 'compliant · 212/212', color: 'brightgreen' })
  expect(renderBadge(makeReport([makeCheckResult(), makeCheckResult({ status: 'skipped' })]))).toMatchObject({ message: 'partial · 1/2', color: 'yellow' })
  expect(renderBadge(makeReport())).toMatchObject({ message: 'non-compliant · 4/15', color: 'red' })
})
