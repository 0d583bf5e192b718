// `crm-conformance coverage`: the requirement matrix (src/coverage/) per clause, against this suite's catalogue.
import type { Command } from 'commander'
import type { CoverageBlock } from '../coverage/matrix.ts'

const SAMPLE_CELLS = 4

const percent = (share: number) => `${(share * 100).toFixed(1)}%`

/** The matrix as text: one line per statement, then its open cells grouped by reason (all cells with `cells`). */
export function renderCoverage(block: CoverageBlock, options: { cells?: boolean } = {}): string {
  const { summary } = block
  const levels = Object.entries(summary.byLevel)
    .map(([level, c]) => `${level} ${c.covered}/${c.cells} (${percent(c.share)})`)
    .join(', ')
  const lines = [
    `Requirement matrix: ${summary.cells} cells over ${summary.statements} MUST/SHOULD statements, ${summary.covered} judged by a check (${percent(summary.share)}); ${levels}`,
    '',
  ]
  for (const s of block.statements) {
    const share = s.cells === 0 ? 1 : s.covered / s.cells
    lines.push(`${s.statement.padEnd(30)} ${s.level.padEnd(6)} ${`${s.covered}/${s.cells}`.padStart(9)} ${percent(share).padStart(6)}  ${s.text}`)
    if (s.belowLevel?.length) {
      const shown = options.cells ? s.belowLevel : s.belowLevel.slice(0, SAMPLE_CELLS)
      const more = s.belowLevel.length - shown.length
      lines.push(`    judged below MUST ${s.belowLevel.length}: only SHOULD or INFO checks judge these cells of a MUST statement`)
      lines.push(`      ${shown.join(', ')}${more > 0 ? `, … ${more} more` : ''}`)
    }
    for (const group of s.open) {
      const shown = options.cells ? group.cells : group.cells.slice(0, SAMPLE_CELLS)
      const more = group.cells.length - shown.length
      lines.push(`    open ${group.cells.length} (${group.kind}): ${group.reason}`)
      lines.push(`      ${shown.join(', ')}${more > 0 ? `, … ${more} more` : ''}`)
    }
  }
  return `${lines.join('\n')}\n`
}

export function registerCoverageCommand(program: Command): void {
  program
    .command('coverage')
    .description('print the requirement matrix: the cells of every MUST and SHOULD clause, the checks that judge them, the covered share')
    .option('--json', 'as JSON (the coverage block of report.json, measured against the catalogue)')
    .option('--cells', 'list every open cell, not a sample')
    .option('--clause <prefix>', 'only the statements whose id starts with this (§4.3, §5.4/scope-areas)')
    .action(async (opts: { json?: boolean; cells?: boolean; clause?: string }) => {
      const { catalogue } = await import('../../suites/index.ts')
      const { coverageBlock } = await import('../coverage/matrix.ts')
      const block = coverageBlock(
        catalogue.map((c) => c.id),
        'catalogue',
        undefined,
        new Map(catalogue.map((c) => [c.id, c.level])),
      )
      const shown = opts.clause ? { ...block, statements: block.statements.filter((s) => s.statement.startsWith(opts.clause!)) } : block
      process.stdout.write(opts.json ? `${JSON.stringify(shown, null, 2)}\n` : renderCoverage(shown, { cells: opts.cells }))
    })
}
