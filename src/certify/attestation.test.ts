// The statement (pure): the predicate's result and test lists from the rows, subject order, and every way a
// statement fails to match a folder. Signing and verification through the CLI: test/attestation.test.ts.
import { describe, expect, it } from 'vitest'
import type { CheckDefinition, CheckResult, Level } from '../checks/types.ts'
import { buildRunReport } from '../report/build.ts'
import { makeCheckResult, makeReportInput } from '../report/test-fixtures.ts'
import { buildStatement, ciRunUrl, resultOf, statementProblems, STATEMENT_TYPE, TEST_RESULT_PREDICATE } from './attestation.ts'
import { certificationBlock, type CertifiedReport } from './profile.ts'

const check = (id: string, level: Level): CheckDefinition => ({ id, level, clauses: ['§4.1'], area: id.split('.')[0]!, title: id, run: async () => {} })
const CATALOGUE = [check('auth.a', 'MUST'), check('auth.b', 'MUST'), check('errors.c', 'SHOULD'), check('lists.d', 'INFO')]
const CODE = { digest: 'c'.repeat(64), files: 3, tree: '.' }

function reportWith(statuses: Partial<Record<string, CheckResult['status']>>): CertifiedReport {
  const rows = CATALOGUE.map((c) =>
    makeCheckResult({ id: c.id, level: c.level, clause: c.clauses[0], clauses: c.clauses, area: c.area, title: c.title, status: statuses[c.id] ?? 'passed' }),
  )
  const base = buildRunReport(makeReportInput(rows, { profile: 'full' }))
  return { ...base, certification: certificationBlock(rows, CATALOGUE, { suiteVersion: '1.0.0', specDigest: 'e'.repeat(64) }) }
}

const FILES = [
  { file: 'PRODUCT.json', sha256: '1'.repeat(64) },
  { file: 'report.json', sha256: '2'.repeat(64) },
  { file: 'MANIFEST.sha256', sha256: '3'.repeat(64) },
]
const digests = (entries = FILES) => new Map(entries.map((f) => [f.file, f.sha256]))

describe('buildStatement', () => {
  it('puts report.json first and sorts the certifying checks into passed, failed (MUST) and warned (SHOULD)', () => {
    const report = reportWith({ 'auth.b': 'failed', 'errors.c': 'failed', 'lists.d': 'failed' })
    const s = buildStatement(report, FILES, CODE, CATALOGUE)
    expect(s._type).toBe(STATEMENT_TYPE)
    expect(s.predicateType).toBe(TEST_RESULT_PREDICATE)
    expect(s.subject.map((x) => x.name)).toEqual(['report.json', 'PRODUCT.json', 'MANIFEST.sha256'])
    expect(s.predicate).toMatchObject({ result: 'FAILED', passedTests: ['auth.a'], failedTests: ['auth.b'], warnedTests: ['errors.c'] })
  })

  it('leaves a skipped check out of every list and names it in the certification descriptor', () => {
    const s = buildStatement(reportWith({ 'auth.b': 'skipped' }), FILES, CODE, CATALOGUE)
    expect(s.predicate).toMatchObject({ result: 'WARNED', passedTests: ['auth.a', 'errors.c'], failedTests: [], warnedTests: [] })
    const cert = s.predicate.configuration.find((d) => d.name === 'crm-conformance certification')!
    expect(cert.annotations).toMatchObject({ verdict: 'partial', notRun: ['auth.b'] })
  })

  it("links the CI run that wrote it (the predicate's url) where there is one", () => {
    const env = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/crm', GITHUB_RUN_ID: '42', GITHUB_RUN_ATTEMPT: '1' }
    expect(ciRunUrl(env)).toBe('https://github.com/acme/crm/actions/runs/42/attempts/1')
    expect(ciRunUrl({})).toBeUndefined()
    expect(buildStatement(reportWith({}), FILES, CODE, CATALOGUE, ciRunUrl(env)).predicate.url).toBe('https://github.com/acme/crm/actions/runs/42/attempts/1')
  })

  it('PASSED only for compliant', () => {
    expect(['compliant', 'partial', 'non-compliant'].map(resultOf)).toEqual(['PASSED', 'WARNED', 'FAILED'])
  })
})

describe('statementProblems', () => {
  const report = reportWith({})
  const statement = buildStatement(report, FILES, CODE, CATALOGUE)

  it('holds for the folder it was made for', () => {
    expect(statementProblems(statement, digests(), report, CATALOGUE)).toEqual([])
  })

  it('names a changed file, a missing one and one added', () => {
    const changed = digests([FILES[0]!, FILES[1]!, { file: 'MANIFEST.sha256', sha256: '9'.repeat(64) }, { file: 'NOTES.md', sha256: '4'.repeat(64) }])
    changed.delete('PRODUCT.json')
    expect(statementProblems(statement, changed, report, CATALOGUE)).toEqual([
      'PRODUCT.json is covered by the statement but missing from the folder',
      `MANIFEST.sha256 is not the file the statement covers: its SHA-256 is ${'9'.repeat(64)}, the statement says ${'3'.repeat(64)}`,
      'NOTES.md is not covered by the statement: it was added after the run',
    ])
  })

  it("says once that another run's statement was made for another submission", () => {
    const other = digests([FILES[0]!, { file: 'report.json', sha256: '8'.repeat(64) }, FILES[2]!])
    expect(statementProblems(statement, other, report, CATALOGUE)).toEqual([
      `report.json is not the report the statement covers: the statement was made for another submission (it says SHA-256 ${'2'.repeat(64)}, this folder's is ${'8'.repeat(64)})`,
    ])
  })

  it('refuses a predicate edited apart from the report, and what is no test-result statement', () => {
    const edited = { ...statement, predicate: { ...statement.predicate, result: 'PASSED', failedTests: [] } }
    const failing = reportWith({ 'auth.a': 'failed' })
    expect(statementProblems(edited, digests(), failing, CATALOGUE)).toEqual([
      "the statement's result is not what report.json gives",
      "the statement's passedTests is not what report.json gives",
      "the statement's failedTests is not what report.json gives",
    ])
    expect(statementProblems({ ...statement, predicateType: 'https://slsa.dev/provenance/v1' }, digests(), report, CATALOGUE)[0]).toContain(
      'not https://in-toto.io/attestation/test-result/v0.1',
    )
    expect(statementProblems([], digests(), report, CATALOGUE)[0]).toContain('not an in-toto Statement v1')
  })
})
