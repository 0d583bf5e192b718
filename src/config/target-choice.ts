// The embedded reference server is tested on purpose only. A pipeline, a key or a typo of a variable
// without CRM_BASE_URL means the user meant their own server: testing ours instead would be a false green
// (or hundreds of failures with their key). Pure.

export interface TargetFacts {
  /** The resolved base URL (flag or environment); undefined: none. */
  baseUrl?: string
  /** `--embedded` was given. */
  embeddedFlag: boolean
  /** A pipeline runs us (src/config/ci.ts). */
  ci: boolean
  /** The CI service detected, by name. */
  ciName?: string
  /** Variables describing a server of the user's (keys, webhook secret, fixtures) that are set. */
  targetVariables: string[]
  /** Set variables that look like ours but are unknown (a probable typo of CRM_BASE_URL among them). */
  lookalikes: string[]
}

export type TargetChoice =
  | { kind: 'remote' }
  /** `ignored`: the user's target variables, dropped so the reference server is tested with its own keys. */
  | { kind: 'embedded'; notice: string; ignored: string[] }
  | { kind: 'refused'; message: string }

const SET_BASE_URL = 'set CRM_BASE_URL (and CRM_API_KEY) to test your server, or pass --embedded to test the embedded reference server'

export function chooseTarget(facts: TargetFacts): TargetChoice {
  if (facts.baseUrl !== undefined) {
    if (facts.embeddedFlag)
      return {
        kind: 'refused',
        message: `--embedded and CRM_BASE_URL (or --base-url ${facts.baseUrl}) name two targets: unset CRM_BASE_URL to test the embedded reference server, or drop --embedded to test ${facts.baseUrl}`,
      }
    return { kind: 'remote' }
  }
  if (facts.embeddedFlag) {
    const ignored = [...facts.targetVariables]
    const notice =
      ignored.length > 0
        ? `--embedded: testing the embedded reference server with its own keys; ignoring ${ignored.join(', ')}`
        : '--embedded: testing the embedded reference server'
    return { kind: 'embedded', notice, ignored }
  }
  if (facts.ci) return { kind: 'refused', message: `${facts.ciName ? `running in ${facts.ciName}` : 'CI is set'} and CRM_BASE_URL is not: ${SET_BASE_URL}` }
  if (facts.targetVariables.length > 0) {
    const named = facts.targetVariables.join(', ')
    return { kind: 'refused', message: `${named} ${facts.targetVariables.length === 1 ? 'is' : 'are'} set but CRM_BASE_URL is not: ${SET_BASE_URL}` }
  }
  if (facts.lookalikes.length > 0) {
    return {
      kind: 'refused',
      message: `${facts.lookalikes.join(', ')} ${facts.lookalikes.length === 1 ? 'is' : 'are'} set but CRM_BASE_URL is not (a misspelt variable?): ${SET_BASE_URL}`,
    }
  }
  return {
    kind: 'embedded',
    notice: 'no CRM_BASE_URL: testing the embedded reference server (pass --embedded to say so; set CRM_BASE_URL to test your server)',
    ignored: [],
  }
}

/** The configuration with the user's target variables dropped, so the embedded server is tested with its own keys, secret and fixtures. */
export function withoutTargetVariables<C extends { keys: object; fixtures: object; restrictedScopes?: string[]; webhookSecret?: string }>(config: C): C {
  return { ...config, keys: {}, fixtures: {}, restrictedScopes: undefined, webhookSecret: undefined }
}
