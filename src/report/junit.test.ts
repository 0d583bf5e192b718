// junit.xml from the RunReport: valid against the JUnit XSD (Ant / Jenkins format, test/junit/junit.xsd),
// exactly one test case per check and nothing else, each outcome in its element, waivers visible but not red.
import { readFileSync } from 'node:fs'
import { validateXML } from 'xmllint-wasm'
import { describe, expect, it } from 'vitest'
import { create } from 'xmlbuilder2'
import { renderJunit } from './junit.ts'
import { makeReport, sampleResults } from './test-fixtures.ts'
import { HOSTILE_ALL, HOSTILE_TEXT } from '../../test/hostile/corpus.ts'

const XSD = readFileSync(new URL('../../test/junit/junit.xsd', import.meta.url), 'utf8')

async function validate(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: XSD }] })
  return result.errors.map((e) => e.rawMessage)
}

interface Case {
  name: string
  properties: Record<string, string>
  child?: { element: string; message?: string }
}

/** xmlbuilder2's object form keeps the entities of attribute values. */
const decode = (text: string | undefined) =>
  text?.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]!)

/** The test cases as a CI reads them (parsed, not matched by pattern). */
function casesOf(xml: string): Case[] {
  const doc = create(xml).end({ format: 'object' }) as any
  const asList = (x: unknown) => (x === undefined ? [] : Array.isArray(x) ? x : [x])
  return asList(doc.testsuites.testsuite).flatMap((suite: any) =>
    asList(suite.testcase).map((c: any) => {
      const element = ['failure', 'error', 'skipped'].find((e) => c[e] !== undefined)
      const child = element ? (typeof c[element] === 'object' ? c[element] : {}) : undefined
      return {
        name: decode(c['@name']) ?? '',
        properties: Object.fromEntries(asList(c.properties?.property).map((p: any) => [p['@name'], decode(p['@value'])])),
        child: element ? { element, message: decode(child['@message']) } : undefined,
      }
    }),
  )
}

describe('renderJunit', () => {
  const report = makeReport(sampleResults())
  const xml = renderJunit(report)

  it('validates against the JUnit XSD, with a failure, an error, a skip and a waiver among its cases', async () => {
    const statuses = new Set(report.checks.map((c) => (c.waived ? 'waived' : c.status)))
    expect([...statuses].sort()).toEqual(['error', 'failed', 'passed', 'skipped', 'waived'])
    expect(await validate(xml)).toEqual([])
  })

  it('the XSD is a real check: a second outcome in one case is refused', async () => {
    const broken = xml.replace(/(<failure [^>]*>)/, '<skipped/>$1')
    expect(broken).not.toBe(xml)
    expect((await validate(broken)).length).toBeGreaterThan(0)
  })

  it('one test case per check, named and tagged with its id, clause and level', () => {
    const cases = casesOf(xml)
    expect(cases).toHaveLength(report.checks.length)
    expect(new Set(cases.map((c) => c.properties.id)).size).toBe(report.checks.length)
    for (const check of report.checks) {
      const found = cases.find((c) => c.properties.id === check.id)!
      expect(found.name).toBe(`${check.id} [${check.level} ${check.clauses.join(' ')}] ${check.title}`)
      expect(found.properties).toMatchObject({ clause: check.clauses.join(' '), level: check.level, status: check.status })
    }
    expect(xml).toMatch(new RegExp(`<testsuites [^>]*tests="${report.checks.length}"`))
  })

  it('failure for failed, error for error, skipped with its reason, a waived failure skipped as waived', () => {
    const cases = new Map(casesOf(xml).map((c) => [c.properties.id, c]))
    for (const check of report.checks) {
      const child = cases.get(check.id)!.child
      if (check.status === 'passed') expect(child, check.id).toBeUndefined()
      else if (check.waived) expect(child).toEqual({ element: 'skipped', message: `waived: ${check.waived.reason}` })
      else if (check.status === 'failed') expect(child).toMatchObject({ element: 'failure', message: check.message })
      else if (check.status === 'error') expect(child).toMatchObject({ element: 'error', message: check.message })
      else expect(child).toEqual({ element: 'skipped', message: check.message })
    }
    const failures = report.checks.filter((c) => c.status === 'failed' && !c.waived).length
    const errors = report.checks.filter((c) => c.status === 'error').length
    expect(xml).toMatch(new RegExp(`<testsuites [^>]*failures="${failures}" errors="${errors}"`))
  })

  it('a run with no check: no test case at all, tests="0", still valid', async () => {
    const empty = renderJunit(makeReport([]))
    expect(casesOf(empty)).toEqual([])
    expect(empty).toMatch(/<testsuites [^>]*tests="0"/)
    expect(await validate(empty)).toEqual([])
  })

  it('hostile text from a server is escaped, not markup', async () => {
    const hostile = renderJunit(
      makeReport(sampleResults().map((r) => ({ ...r, message: r.message && `${r.message} ]]></failure><testcase name="x"/> &amp; "q"` }))),
    )
    expect(await validate(hostile)).toEqual([])
    expect(casesOf(hostile)).toHaveLength(sampleResults().length)
  })

  it('characters XML 1.0 forbids, in every attribute and text node, are shown escaped: a strict parser reads the file', async () => {
    const h = HOSTILE_ALL
    const results = sampleResults().map((r, i) => ({
      ...r,
      id: `${r.id}${h}`,
      area: i % 2 ? `${r.area}${HOSTILE_TEXT.xmlForbidden}` : r.area,
      title: `${r.title}${h}`,
      clause: `${r.clause}${HOSTILE_TEXT.loneHigh}`,
      clauses: [`${r.clause}${HOSTILE_TEXT.loneLow}`],
      message: `${r.message}${h}`,
      expected: `${h}`,
      replay: `curl '${h}'`,
      waived: r.waived && { ...r.waived, reason: `${r.waived.reason}${h}` },
    }))
    const report = makeReport(results)
    report.target.baseUrl = `https://crm.example.test/${h}`
    report.interrupted = { reason: `signal ${h}` } as typeof report.interrupted
    const hostile = renderJunit(report)
    expect(hostile).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDFFF]/)
    expect(await validate(hostile)).toEqual([])
    expect(casesOf(hostile)).toHaveLength(results.length)
    expect(hostile).toContain('code\\uFFFE\\uFFFF\\x01\\x1F')
    expect(hostile).toContain('\\e]52;')
  })
})
