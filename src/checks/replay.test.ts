import { afterEach, describe, expect, it } from 'vitest'
import { invocationFromEnv, replayCommand, setReplayInvocation } from './replay.ts'

const embedded = { seed: 7, profile: 'full' as const }
const remote = { seed: 7, profile: 'safe' as const, baseUrl: 'https://crm.example.com/v1' }

afterEach(() => setReplayInvocation(undefined))

describe('replay lines replay as the command was invoked', () => {
  it('an embedded run keeps --embedded (required in CI and next to CRM_ keys)', () => {
    expect(replayCommand(embedded, { only: ['auth.x'] })).toBe('crm-conformance run --embedded --only auth.x --seed 7 --profile full')
    expect(replayCommand(remote)).toBe('crm-conformance run --seed 7 --profile safe --base-url https://crm.example.com/v1')
  })

  it('through npx: npx crm-conformance', () => {
    setReplayInvocation(invocationFromEnv({ npm_command: 'exec', npm_lifecycle_event: 'npx' }))
    expect(replayCommand(embedded)).toBe('npx crm-conformance run --embedded --seed 7 --profile full')
  })

  it('through an npm script: the script, whose own words (run --embedded) are not repeated', () => {
    setReplayInvocation(
      invocationFromEnv({
        // npm 11 says `run`, older npm `run-script`.
        npm_command: 'run',
        npm_lifecycle_event: 'conformance',
        npm_lifecycle_script: 'node scripts/build-if-changed.mjs && node bin/crm-conformance.mjs run --embedded',
      }),
    )
    expect(replayCommand(embedded, { only: ['auth.x'] })).toBe('npm run conformance -- --only auth.x --seed 7 --profile full')
  })

  it('installed on the PATH, or no npm at all: crm-conformance', () => {
    expect(invocationFromEnv({})).toEqual({ prefix: 'crm-conformance run' })
    expect(invocationFromEnv({ npm_command: 'run-script', npm_lifecycle_event: 'test', npm_lifecycle_script: 'vitest run' })).toEqual({
      prefix: 'crm-conformance run',
    })
  })
})
