// The crm-conformance command line. Each command is a thin shell over a module that does the work; its options
// are declared by one register…Command function (./commands/, coverage in ./coverage-command.ts), in help order here.
import { Command, CommanderError } from 'commander'
import { CrmConfError } from '../errors.ts'
import { dropOutputWhenReaderLeaves } from './closed-pipe.ts'
import { printable } from '../text/printable.ts'
import { TOOL_VERSION } from '../version.ts'
import { registerCoverageCommand } from './coverage-command.ts'
import { registerRunCommand } from './commands/run.ts'
import { registerCertifyCommand } from './commands/certify.ts'
import { registerVerifySubmissionCommand } from './commands/verify-submission.ts'
import { registerListCommand } from './commands/list.ts'
import { registerServeCommand } from './commands/serve.ts'
import { registerSinkCommand } from './commands/sink.ts'
import { registerSweepCommand } from './commands/sweep.ts'
import { registerProxyCommand } from './commands/proxy.ts'
import { registerVerifyTrafficCommand } from './commands/verify-traffic.ts'
import { registerDiffCommand } from './commands/diff.ts'
import { registerCompareCommand } from './commands/compare.ts'
import { registerOpenApiCommand } from './commands/openapi.ts'

export function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command()
    .name('crm-conformance')
    .description('Conformance test suite for the CRM REST API (spec/crm-api-spec.md)')
    .version(TOOL_VERSION)
    .showHelpAfterError()
    .exitOverride()

  registerRunCommand(program, setExit)
  // Certification (src/certify/): certify writes a submission folder, verify-submission checks one.
  registerCertifyCommand(program, setExit)
  registerVerifySubmissionCommand(program, setExit)
  registerListCommand(program, setExit)
  registerServeCommand(program, setExit)
  registerSinkCommand(program)
  registerSweepCommand(program, setExit)
  // The contract verifier on real traffic (src/traffic/).
  registerProxyCommand(program, setExit)
  registerVerifyTrafficCommand(program, setExit)
  registerCoverageCommand(program, setExit)
  registerDiffCommand(program, setExit)
  registerCompareCommand(program, setExit)
  registerOpenApiCommand(program)

  return program
}

export async function main(argv: string[]): Promise<number> {
  dropOutputWhenReaderLeaves(process.stdout)
  dropOutputWhenReaderLeaves(process.stderr)
  let exitCode = 0
  const program = buildProgram((code) => (exitCode = code))
  // `run` is the default command, so a mistyped command (`certfy`) would otherwise be refused as an extra argument of run.
  const first = argv[0]
  if (first !== undefined && !first.startsWith('-') && first !== 'help' && !program.commands.some((c) => c.name() === first || c.aliases().includes(first))) {
    process.stderr.write(
      `error: unknown command '${first}' (commands: ${program.commands.map((c) => c.name()).join(', ')}; crm-conformance --help lists them)\n`,
    )
    return 2
  }
  try {
    await program.parseAsync(argv, { from: 'user' })
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2
    // An unusable configuration (sweep, sink) is often a misspelt name (CRM_APIKEY): said with it.
    if (error instanceof CrmConfError && error.code === 'CRMCONF_CONFIG_INVALID') {
      const { environmentFacts, PUBLIC_VARIABLES } = await import('../config/config.ts')
      const { lookalikeWarnings } = await import('../config/env-names.ts')
      for (const line of lookalikeWarnings(environmentFacts(process.env).names, PUBLIC_VARIABLES)) process.stderr.write(`${printable(line)}\n`)
    }
    // A refusal may quote what a server or a file said.
    process.stderr.write(`${printable((error as Error).message)}\n`)
    return 2
  }
  return exitCode
}
