// `crm-conformance coverage`: the requirement matrix (src/coverage/) per clause, against this suite's catalogue.
import type { Command } from 'commander'
import { nearestTerms } from '../config/nearest-terms.ts'
import { resolve } from 'node:path'
import { exploredBlock, exploredLine, type ExploredBlock } from '../coverage/explored.ts'
import type { CoverageBlock } from '../coverage/matrix.ts'
import { readHistory } from '../run/history.ts'

const SAMPLE_CELLS = 4

/** The explored share over a --history file's runs: the last run's cells, and the union with every earlier one. */
async function exploredOfHistory(file: string | undefined): Promise<ExploredBlock | undefined> {
  if (!file) return undefined
  const lines = readHistory(resolve(file)).filter((l) => Array.isArray(l.explored) && l.explored.length > 0)
  return exploredBlock(lines.at(-1)?.explored ?? [], { file, earlier: lines.slice(0, -1).map((l) => l.explored!) })
}

/** Without a history: the size of what the explorer may explore, and how to measure its share. */
function exploredUniverseLine(): string {
  const none = exploredBlock([])
  return `Explored share: ${none.universe} cells (operation × axis × value form) over ${none.operations.total} operations; \`run --only explore --history FILE\` each night and \`coverage --history FILE\` shows the share explored over the nights`
}

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

/**
 * `--clause`: the statements of a clause, typed with or without `§` (`5.4`, `§5.4`, `§5.4/scope-areas`); a clause
 * is matched whole with its sub-clauses (`§4` holds `§4.3`; `§5.4` is not `§5.45`). A clause no statement cites is a problem naming the nearest ones.
 */
export function statementsOfClause(block: CoverageBlock, typed: string): { block: CoverageBlock } | { problem: string } {
  const clause = typed.startsWith('§') ? typed : `§${typed}`
  const statements = block.statements.filter((s) => s.statement.startsWith(clause) && !/^\d/.test(s.statement.slice(clause.length)))
  if (statements.length > 0) return { block: { ...block, statements } }
  const clauses = [
    ...new Set(
      block.statements.flatMap((s) =>
        s.statement
          .split('/')[0]!
          .split('.')
          .map((_, i, parts) => parts.slice(0, i + 1).join('.')),
      ),
    ),
  ]
  const near = nearestTerms(clause, clauses)
  return {
    problem: `--clause ${typed}: no MUST or SHOULD statement of the matrix is in that clause; ${near.length > 0 ? `did you mean ${near.join(', ')}?` : `the clauses are ${clauses.join(', ')}`}`,
  }
}

export function registerCoverageCommand(program: Command, setExit: (code: number) => void = () => {}): void {
  program
    .command('coverage')
    .description('print the requirement matrix: the cells of every MUST and SHOULD clause, the checks that judge them, the covered share')
    .option('--json', 'as JSON (the coverage block of report.json, measured against the catalogue)')
    .option('--cells', 'list every open cell, not a sample')
    .option('--clause <clause>', 'only the statements of this clause (§4.3 or 4.3, §5.4/scope-areas)')
    .option('--history <file>', "also the explorer's explored share over the runs of that --history file (the union of their cells)")
    .action(async (opts: { json?: boolean; cells?: boolean; clause?: string; history?: string }) => {
      const { catalogue } = await import('../../suites/index.ts')
      const { coverageBlock } = await import('../coverage/matrix.ts')
      const block = coverageBlock(
        catalogue.map((c) => c.id),
        'catalogue',
        undefined,
        new Map(catalogue.map((c) => [c.id, c.level])),
      )
      const chosen = opts.clause ? statementsOfClause(block, opts.clause) : { block }
      if ('problem' in chosen) {
        process.stderr.write(`${chosen.problem}\n`)
        return setExit(2)
      }
      const shown = chosen.block
      const explored = await exploredOfHistory(opts.history)
      if (opts.json) return void process.stdout.write(`${JSON.stringify(opts.history ? { ...shown, explored } : shown, null, 2)}\n`)
      process.stdout.write(renderCoverage(shown, { cells: opts.cells }))
      process.stdout.write(`\n${explored ? exploredLine(explored) : exploredUniverseLine()}\n`)
    })
}
