import { describe, expect, test } from 'vitest'
import { PUBLIC_VARIABLES, environmentFacts } from './config.ts'
import { lookalikeVariables, lookalikeWarnings } from './env-names.ts'

describe('variables that look like ours', () => {
  test('a typo names the variable it resembles', () => {
    expect(lookalikeWarnings(['CRM_APIKEY', 'CRM_BASEURL', 'CRM_API_KEY_RESTRICED'], PUBLIC_VARIABLES)).toEqual([
      'warning: CRM_APIKEY is not a variable crm-conformance reads: did you mean CRM_API_KEY?',
      'warning: CRM_BASEURL is not a variable crm-conformance reads: did you mean CRM_BASE_URL?',
      'warning: CRM_API_KEY_RESTRICED is not a variable crm-conformance reads: did you mean CRM_API_KEY_RESTRICTED?',
    ])
  })

  test('lower case and a swapped prefix are look-alikes too', () => {
    expect(lookalikeWarnings(['crm_api_key', 'CMR_API_KEY'], PUBLIC_VARIABLES)).toEqual([
      'warning: crm_api_key is not a variable crm-conformance reads: did you mean CRM_API_KEY?',
      'warning: CMR_API_KEY is not a variable crm-conformance reads: did you mean CRM_API_KEY?',
    ])
  })

  test("known names, unrelated names and the CI examples' own variables are left alone", () => {
    expect(lookalikeVariables([...PUBLIC_VARIABLES, 'PATH', 'HOME', 'CI', 'CRM_CONFORMANCE_REF', 'NODE_OPTIONS'], PUBLIC_VARIABLES)).toEqual([])
  })

  test('a CRM name far from every public one: warned, without a guess', () => {
    expect(lookalikeWarnings(['CRM_SOMETHING_ELSE_ENTIRELY'], PUBLIC_VARIABLES)).toEqual([
      'warning: CRM_SOMETHING_ELSE_ENTIRELY is not a variable crm-conformance reads (docs/reference.md lists them): it is ignored',
    ])
  })

  test('the public list holds every name the loader reads', () => {
    for (const name of ['CRM_BASE_URL', 'CRM_API_KEY', 'CRM_API_KEY_IP_BLOCKED', 'CRM_FIXTURE_SENT_INVOICE_ID', 'CRM_PBT_RUNS', 'CRM_WEBHOOK_SINK_PORT'])
      expect(PUBLIC_VARIABLES).toContain(name)
  })
})

describe('environmentFacts', () => {
  test('CI is set unless empty, false or 0; names are those with a value', () => {
    expect(environmentFacts({ CI: 'true', CRM_APIKEY: 'x', EMPTY: '' }, { envFile: false })).toEqual({ ci: true, names: ['CI', 'CRM_APIKEY'] })
    expect(environmentFacts({ CI: 'false' }, { envFile: false }).ci).toBe(false)
    expect(environmentFacts({ CI: '0' }, { envFile: false }).ci).toBe(false)
    expect(environmentFacts({}, { envFile: false }).ci).toBe(false)
  })
})
