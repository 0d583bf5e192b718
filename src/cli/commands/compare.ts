// `crm-conformance compare`: many targets' reports side by side, as Markdown and HTML (../compare-command.ts).
import type { Command } from 'commander'

export function registerCompareCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('compare')
    .description('many targets side by side: one column per report, one row per clause, and the choices each server made where the spec leaves them open')
    .argument('<reports...>', 'report folders, submission folders (with PRODUCT.json) or report.json files, one column each in the order given')
    .option('--report-dir <dir>', 'write compare.md and compare.html there')
    .option('--markdown <file>', 'write the Markdown table to this file')
    .option('--html <file>', 'write the HTML page to this file')
    .action(async (reports: string[], opts: { reportDir?: string; markdown?: string; html?: string }) => {
      const { compareCommand } = await import('../compare-command.ts')
      setExit(compareCommand(reports, { reportDir: opts.reportDir, markdown: opts.markdown, html: opts.html }).exitCode)
    })
}
