import { describe, expect, it } from 'vitest'
import { coverageBlock } from '../coverage/matrix.ts'
import { renderCoverage } from './coverage-command.ts'

describe('crm-conformance coverage', () => {
  it('prints the covered share, one line per statement, and a sample of the open cells of each reason', () => {
    const text = renderCoverage(coverageBlock(['filters.account.email.sound', 'filters.account.email.complete'], 'catalogue'))
    expect(text).toMatch(/^Requirement matrix: \d+ cells over \d+ MUST\/SHOULD statements, \d+ judged by a check \(\d+\.\d%\)/)
    expect(text).toMatch(/§4\.3\/filters\s+MUST\s+\d+\/\d+/)
    expect(text).toContain('open ')
    expect(text).toContain('more')
    expect(renderCoverage(coverageBlock([], 'catalogue'), { cells: true })).not.toContain('… ')
  })
})
