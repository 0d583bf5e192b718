// `crm-conformance sweep`: removes what crashed runs left behind (src/engine/sweep.ts).
import type { Command } from 'commander'
import { CrmConfError } from '../../errors.ts'
import { printable, printableLine } from '../../text/printable.ts'

export function registerSweepCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('sweep')
    .description('remove records that earlier runs of this suite left behind (tagged crmconf-run-<run id>)')
    .option('--older-than <age>', 'only runs older than this: 30m, 6h, 2d', '6h')
    .option('--dry-run', 'list what would be removed, remove nothing')
    .option('--run <id>', 'only the records of this run, whatever its age (as an interrupted run prints it)')
    .option('--base-url <url>', 'base address including /v1 (overrides CRM_BASE_URL)')
    .action(async (opts) => {
      const { loadConfig } = await import('../../config/config.ts')
      const { sweep, parseDuration } = await import('../../engine/sweep.ts')
      const { transportFor } = await import('../../http/for-config.ts')
      let olderThanMs: number
      try {
        olderThanMs = parseDuration(opts.olderThan)
      } catch (error) {
        throw new CrmConfError('CRMCONF_USAGE', `sweep: --older-than: ${(error as Error).message}`)
      }
      const config = loadConfig(process.env, { baseUrl: opts.baseUrl })
      if (!config.baseUrl) throw new CrmConfError('CRMCONF_USAGE', 'sweep needs CRM_BASE_URL (or --base-url) and CRM_API_KEY')
      const transport = transportFor(config)
      try {
        const result = await sweep(transport, opts.run ? { olderThanMs: 0, onlyRunId: opts.run, dryRun: opts.dryRun } : { olderThanMs, dryRun: opts.dryRun })
        for (const r of result.removed)
          process.stdout.write(printable(`${opts.dryRun ? 'would remove' : 'removed'} ${r.resource} ${printableLine(r.id)} (run ${r.runId})\n`))
        for (const f of result.failed) process.stdout.write(printable(`could not remove ${f.resource} ${printableLine(f.id)}: ${f.reason}\n`))
        process.stdout.write(
          `${result.scanned} records scanned, ${result.removed.length} ${opts.dryRun ? 'to remove' : 'removed'}, ${result.failed.length} failed\n`,
        )
        setExit(result.failed.length > 0 ? 1 : 0)
      } finally {
        await transport.close()
      }
    })
}
