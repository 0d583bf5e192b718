// Every check of the catalogue names where it is declared (`list --where`, the report's rows): a line of
// suites/ that calls defineCheck, so a failing id from a report leads to its code.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../src/version.ts'
import { catalogue } from '../suites/index.ts'

describe('the declarations of the catalogue', () => {
  it('are recorded for every check, each a suites/ line that calls defineCheck', () => {
    const wrong = catalogue.flatMap((check) => {
      const match = /^(suites\/[^:]+\.ts):(\d+)$/.exec(check.declaredAt ?? '')
      if (!match) return [`${check.id}: ${check.declaredAt}`]
      const line = readFileSync(join(PROJECT_ROOT, match[1]!), 'utf8').split('\n')[Number(match[2]) - 1] ?? ''
      return line.includes('defineCheck(') ? [] : [`${check.id}: ${check.declaredAt} is \`${line.trim()}\``]
    })
    expect(wrong).toEqual([])
  })
})
