// The CLI's vitest reporter: gathers each check's CheckResult from the test's meta and prints progress
// (area, checks done, failures as they happen). It prints no secret: results are redacted in the worker.
import type { Reporter, TestCase, TestModule } from 'vitest/node'
import type { CheckResult } from '../checks/types.ts'

export interface CollectorOptions {
  quiet?: boolean
  write?: (text: string) => void
}

const MARK: Record<CheckResult['status'], string> = { passed: '✓', failed: '✗', skipped: '○', error: '!' }

export class ResultCollector implements Reporter {
  readonly results: CheckResult[] = []
  readonly unhandled: string[] = []
  private readonly write: (text: string) => void

  constructor(private readonly options: CollectorOptions = {}) {
    this.write = options.write ?? ((text) => process.stdout.write(text))
  }

  onTestModuleStart(module: TestModule): void {
    const area = /suites\/([^/]+)\//.exec(module.moduleId.replace(/\\/g, '/'))?.[1]
    if (area && !this.options.quiet) this.write(`\n${area}\n`)
  }

  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.meta().crmconf
    if (!result) {
      // A test that died before its check could report (e.g. a vitest timeout): a harness error.
      const state = testCase.result().state
      if (state === 'failed') this.unhandled.push(`${testCase.name}: ${testCase.result().errors?.[0]?.message ?? 'failed'}`)
      return
    }
    this.results.push(result)
    if (this.options.quiet) return
    const line = `  ${MARK[result.status]} ${result.level.padEnd(6)} ${result.id} (${result.clause})`
    this.write(result.status === 'failed' || result.status === 'error' ? `${line}\n      ${result.message}\n` : `${line}\n`)
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<{ message?: string }>): void {
    for (const error of errors) this.unhandled.push(error.message ?? String(error))
  }
}
