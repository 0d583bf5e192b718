import { describe, expect, it } from 'vitest'
import { detectCi } from './ci.ts'

describe('every CI recognised (ci-info), not only those that set CI', () => {
  it.each([
    { env: { JENKINS_URL: 'https://jenkins.example.com/', BUILD_ID: '42' }, name: 'Jenkins' },
    { env: { TF_BUILD: 'True', BUILD_REASON: 'Manual' }, name: 'Azure Pipelines' },
    { env: { TEAMCITY_VERSION: '2024.12' }, name: 'TeamCity' },
    { env: { BUILDKITE: 'true' }, name: 'Buildkite' },
    { env: { GITHUB_ACTIONS: 'true' }, name: 'GitHub Actions' },
    { env: { GITLAB_CI: 'true' }, name: 'GitLab CI' },
  ])('$name, with no CI variable', ({ env, name }) => {
    expect(detectCi(env)).toEqual({ ci: true, name })
  })

  it('CI alone: a pipeline, unnamed', () => {
    expect(detectCi({ CI: 'true' })).toEqual({ ci: true })
  })

  it('a developer machine: none', () => {
    expect(detectCi({ PATH: '/usr/bin', HOME: '/home/dev' })).toEqual({ ci: false })
  })

  it('CI=false (or 0) says "not a pipeline", whatever else is set', () => {
    expect(detectCi({ CI: 'false', GITHUB_ACTIONS: 'true' })).toEqual({ ci: false })
    expect(detectCi({ CI: '0' })).toEqual({ ci: false })
  })
})
