// `crm-conformance list | head -1`: the reader leaves after its first line. The command ends with its own exit
// code and says nothing about the closed pipe (it crashed with EPIPE before).
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { PROJECT_ROOT } from '../src/version.ts'

it('list piped into a reader that leaves after one line exits 0 without an error', async () => {
  const child = spawn('bash', ['-c', `set -o pipefail; node ${JSON.stringify(join(PROJECT_ROOT, 'bin', 'crm-conformance-ts.mjs'))} list | head -1`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  expect(stderr).not.toMatch(/EPIPE|Error/)
  expect(stdout.trim().split('\n')).toHaveLength(1)
  expect(stdout).toMatch(/^discovery\./)
  expect(code).toBe(0)
}, 60_000)
