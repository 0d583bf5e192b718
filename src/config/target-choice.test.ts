import { describe, expect, test } from 'vitest'
import { chooseTarget, type TargetFacts } from './target-choice.ts'

const facts = (f: Partial<TargetFacts>): TargetFacts => ({ embeddedFlag: false, ci: false, targetVariables: [], lookalikes: [], ...f })

describe('the embedded server is chosen on purpose', () => {
  test("a base URL: the user's server", () => {
    expect(chooseTarget(facts({ baseUrl: 'https://crm.example.test/v1', ci: true, targetVariables: ['CRM_API_KEY'] }))).toEqual({ kind: 'remote' })
  })

  test('a base URL and --embedded: refused, two targets', () => {
    const choice = chooseTarget(facts({ baseUrl: 'https://crm.example.test/v1', embeddedFlag: true }))
    expect(choice).toMatchObject({ kind: 'refused', message: expect.stringMatching(/^--embedded and CRM_BASE_URL .* name two targets/) })
  })

  test('CI without a base URL: refused, saying what to set', () => {
    expect(chooseTarget(facts({ ci: true }))).toEqual({
      kind: 'refused',
      message:
        'CI is set and CRM_BASE_URL is not: set CRM_BASE_URL (and CRM_API_KEY) to test your server, or pass --embedded to test the embedded reference server',
    })
  })

  test('a key without a base URL: refused, naming the key', () => {
    expect(chooseTarget(facts({ targetVariables: ['CRM_API_KEY'] }))).toMatchObject({
      kind: 'refused',
      message: expect.stringMatching(/^CRM_API_KEY is set but CRM_BASE_URL is not: set CRM_BASE_URL/),
    })
  })

  test('a misspelt variable without a base URL: refused', () => {
    expect(chooseTarget(facts({ lookalikes: ['CRM_BASEURL'] }))).toMatchObject({
      kind: 'refused',
      message: expect.stringContaining('CRM_BASEURL is set but CRM_BASE_URL is not (a misspelt variable?)'),
    })
  })

  test("--embedded: the reference server, even in CI, with the user's target variables ignored and named", () => {
    expect(chooseTarget(facts({ embeddedFlag: true, ci: true }))).toEqual({
      kind: 'embedded',
      notice: '--embedded: testing the embedded reference server',
      ignored: [],
    })
    expect(chooseTarget(facts({ embeddedFlag: true, targetVariables: ['CRM_API_KEY', 'CRM_WEBHOOK_SECRET'] }))).toEqual({
      kind: 'embedded',
      notice: '--embedded: testing the embedded reference server with its own keys; ignoring CRM_API_KEY, CRM_WEBHOOK_SECRET',
      ignored: ['CRM_API_KEY', 'CRM_WEBHOOK_SECRET'],
    })
  })

  test('nothing set, no CI: the embedded server, said plainly', () => {
    expect(chooseTarget(facts({}))).toMatchObject({
      kind: 'embedded',
      notice: expect.stringContaining('testing the embedded reference server (pass --embedded to say so'),
    })
  })
})
