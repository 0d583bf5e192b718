// `crm-conformance diff <before> <after>`: two runs compared (../diff-command.ts).
import type { Command } from 'commander'

export function registerDiffCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('diff')
    .description('what changed between two runs: one line per changed check; exit 1 when a check that passed now fails or errors')
    .argument('<before>', 'the earlier report folder or report.json')
    .argument('<after>', 'the later report folder or report.json')
    .option('--json', 'print the changes as JSON')
    .option('--markdown', 'print the changes as Markdown for a pull-request comment')
    .action(async (before: string, after: string, opts) => {
      const { diffCommand } = await import('../diff-command.ts')
      setExit(diffCommand(before, after, { json: opts.json, markdown: opts.markdown }).exitCode)
    })
}
