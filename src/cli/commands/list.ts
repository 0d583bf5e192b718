// `crm-conformance list`: every check of the catalogue, or with `--where` the file and line each is declared at (../where.ts).
import type { Command } from 'commander'
import { printable } from '../../text/printable.ts'
import { collect } from './options.ts'

/** Both listings print their checks as JSON the same way: indented, one trailing newline. */
const printJson = (checks: unknown[]) => process.stdout.write(`${JSON.stringify(checks, null, 2)}\n`)

export function registerListCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('list')
    .description('list every check: id, level, clauses, title (or, with --faults, the faults --fault injects)')
    .option('--json', 'as JSON')
    .option('--faults', "list the reference server's faults (the names --fault takes) with what each breaks, instead of the checks")
    .option(
      '--where <id|clause>',
      'where each check this selects is declared: file and line (id, id prefix, area or clause; repeatable, comma-separated)',
      collect,
    )
    .action(async (opts) => {
      if (opts.faults) {
        const { FAULTS } = await import('../../reference/faults.ts')
        if (opts.json) printJson(FAULTS.map((f) => ({ ...f })))
        else process.stdout.write(FAULTS.map((f) => `${f.id.padEnd(48)} ${f.description}\n`).join(''))
        return
      }
      const { catalogue } = await import('../../../suites/index.ts')
      if (opts.where) {
        const { whereChecks } = await import('../where.ts')
        const answer = whereChecks(catalogue, opts.where)
        if (answer.problem) {
          process.stderr.write(`${printable(answer.problem)}\n`)
          return setExit(2)
        }
        if (opts.json) printJson(answer.checks.map(({ run: _run, ...c }) => c))
        else process.stdout.write(answer.lines.map((line) => `${line}\n`).join(''))
        return
      }
      if (opts.json) printJson(catalogue.map(({ run: _run, declaredAt: _declaredAt, ...c }) => c))
      else for (const c of catalogue) process.stdout.write(`${c.id.padEnd(48)} ${c.level.padEnd(6)} ${c.clauses.join(',').padEnd(14)} ${c.title}\n`)
    })
}
