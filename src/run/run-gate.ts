// What is settled before a run starts, in one call for the run command: look-alike variable names
// (warned), the target (the embedded server only on purpose), the selection and the profile's scope (a run
// that would test nothing is refused). The credentials are checked next, against the target (preflight.ts).
import type { CheckDefinition } from '../checks/types.ts'
import { environmentFacts, PUBLIC_VARIABLES, TARGET_VARIABLES, type ResolvedConfig } from '../config/config.ts'
import { lookalikeVariables, lookalikeWarnings } from '../config/env-names.ts'
import { chooseTarget, withoutTargetVariables } from '../config/target-choice.ts'
import type { RunScope } from '../report/types.ts'
import { describeScope, emptyScopeProblem } from '../engine/scope.ts'
import { selectionProblem } from '../engine/selection.ts'

export interface GateRequest {
  env: NodeJS.ProcessEnv
  embedded?: boolean
  only?: string[]
  skip?: string[]
}

export interface Gate {
  /** Lines to print first (warnings, the embedded notice). */
  lines: string[]
  /** Set when the run must not start (exit 2): what is wrong and what to set. */
  refusal?: string
  /** The configuration to run with: the user's target variables dropped when `--embedded` ignores them. */
  config: ResolvedConfig
  /** What the run is asked to judge, for buildRunReport. */
  scope: RunScope
  /** The CI service running us, named in the run's first line. */
  ciName?: string
}

export function gateRun(config: ResolvedConfig, catalogue: CheckDefinition[], request: GateRequest): Gate {
  const facts = environmentFacts(request.env)
  const lines = lookalikeWarnings(facts.names, PUBLIC_VARIABLES)
  const scope = describeScope(catalogue, { only: request.only, skip: request.skip, profile: config.profile })
  const choice = chooseTarget({
    baseUrl: config.baseUrl,
    embeddedFlag: request.embedded ?? false,
    ci: facts.ci,
    ciName: facts.ciName,
    targetVariables: facts.names.filter((n) => TARGET_VARIABLES.includes(n)),
    lookalikes: lookalikeVariables(facts.names, PUBLIC_VARIABLES),
  })
  if (choice.kind === 'refused') return { lines, refusal: choice.message, config, scope }
  if (choice.kind === 'embedded') lines.push(choice.notice)
  const resolved = choice.kind === 'embedded' && choice.ignored.length > 0 ? withoutTargetVariables(config) : config
  const refusal = selectionProblem(catalogue, request.only, request.skip) ?? emptyScopeProblem(scope, config.profile)
  return { lines, refusal, config: resolved, scope, ciName: facts.ci ? (facts.ciName ?? 'CI') : undefined }
}
