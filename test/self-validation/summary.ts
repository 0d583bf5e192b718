// vitest globalSetup: after the whole test run, assembles the self-validation rows into the printed table
// and reports/mutation-report.md (linked from the README).
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { renderMutationReport, type FaultRow, type VariantRow } from '../../src/selfcheck/matrix.ts'
import { TOOL_VERSION } from '../../src/version.ts'
import { FAULT_SHARDS, MUTATION_REPORT, SELFCHECK_DIR } from './paths.ts'

let startedAt = 0

export function setup(): void {
  startedAt = Date.now()
}

export function teardown(): void {
  const files = [...Array.from({ length: FAULT_SHARDS }, (_, i) => `faults-${i}.json`), 'variants.json']
  // Only a run of every self-validation file makes a report (not a run of a single unit test).
  const fresh = (f: string) => existsSync(join(SELFCHECK_DIR, f)) && statSync(join(SELFCHECK_DIR, f)).mtimeMs >= startedAt
  if (!files.every(fresh)) return
  const read = <T>(f: string): T[] => JSON.parse(readFileSync(join(SELFCHECK_DIR, f), 'utf8')) as T[]
  const faults = files
    .slice(0, -1)
    .flatMap((f) => read<FaultRow>(f))
    .sort((a, b) => a.fault.localeCompare(b.fault))
  const variants = read<VariantRow>('variants.json').sort((a, b) => a.variant.localeCompare(b.variant))
  if (faults.length === 0) return
  const report = renderMutationReport(faults, variants, { suiteVersion: TOOL_VERSION })
  writeFileSync(MUTATION_REPORT, report)
  const caught = faults.filter((f) => f.outcome === 'caught').length
  const falseFailures = variants.reduce((n, v) => n + v.falseFailures.length, 0)
  const width = Math.max(...faults.map((f) => f.fault.length))
  const lines = ['', 'Self-validation (fault → expected check → caught by → verdict)']
  for (const f of faults) {
    lines.push(
      `  ${f.fault.padEnd(width)}  ${f.expected[0] ?? '—'}${f.expected.length > 1 ? ` (+${f.expected.length - 1})` : ''} → ${f.caughtBy.length} checks → ${f.outcome}`,
    )
  }
  lines.push(`mutation score: ${caught}/${faults.length}`, `false failures on variants: ${falseFailures}`, `table: ${MUTATION_REPORT}`, '')
  process.stdout.write(lines.join('\n'))
}
