// Which CI service runs us, from ci-info's list of vendors (some fifty, maintained upstream): Jenkins, Azure
// Pipelines, TeamCity and Buildkite do not set `CI`, and there a silent embedded run would be a false green.
// ci-info reads process.env once at load; the run reads the environment it is given, so its vendors.json is
// evaluated here the way ci-info's index.js does.
import { createRequire } from 'node:module'

type EnvTest = string | { env: string; includes: string } | { any: string[] } | Record<string, string>

interface Vendor {
  name: string
  constant: string
  env: EnvTest | EnvTest[]
}

const VENDORS = createRequire(import.meta.url)('ci-info/vendors.json') as Vendor[]

/** Variables ci-info reads as "some CI" when no vendor's own is set (Jenkins, TeamCity, TaskCluster, Codeship…). */
const GENERIC = ['BUILD_ID', 'BUILD_NUMBER', 'CI', 'CI_APP_ID', 'CI_BUILD_ID', 'CI_BUILD_NUMBER', 'CI_NAME', 'CONTINUOUS_INTEGRATION', 'RUN_ID']

export interface CiDetection {
  /** A pipeline runs us. */
  ci: boolean
  /** The service, as ci-info names it (`GitHub Actions`, `Jenkins`); undefined for an unnamed one (`CI=true`). */
  name?: string
}

function matches(test: EnvTest, env: NodeJS.ProcessEnv): boolean {
  if (typeof test === 'string') return !!env[test]
  if ('env' in test && 'includes' in test) return !!env[test.env]?.includes(test.includes as string)
  if ('any' in test && Array.isArray(test.any)) return test.any.some((name) => !!env[name])
  return Object.entries(test as Record<string, string>).every(([name, value]) => env[name] === value)
}

export function detectCi(env: NodeJS.ProcessEnv): CiDetection {
  // `CI=false` (or 0) is how a user says "not a pipeline" (ci-info honours `false`).
  if (env.CI !== undefined && /^(false|0)$/i.test(env.CI.trim())) return { ci: false }
  const vendor = VENDORS.filter((v) => (Array.isArray(v.env) ? v.env : [v.env]).every((test) => matches(test, env))).at(-1)
  if (vendor) return { ci: true, name: vendor.name }
  return { ci: GENERIC.some((name) => (env[name] ?? '').trim() !== '') }
}
