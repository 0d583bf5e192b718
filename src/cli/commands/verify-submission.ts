// `crm-conformance verify-submission <dir>`: checks a certification submission (../verify-submission-command.ts).
import type { Command } from 'commander'

export function registerVerifySubmissionCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('verify-submission')
    .description('check a certification submission: manifest, every certifying check present, verdict, no waiver or selection, no secret')
    .argument('<dir>', 'the submission folder')
    .option('--json', 'print the result as JSON')
    .action(async (dir: string, opts) => {
      const { verifyCommand } = await import('../verify-submission-command.ts')
      const outcome = await verifyCommand(dir, { json: opts.json })
      setExit(outcome.exitCode)
    })
}
