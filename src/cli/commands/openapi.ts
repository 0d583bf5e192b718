// `crm-conformance openapi`: the OpenAPI 3.1 document assembled from schemas/ (src/openapi/build.ts).
import type { Command } from 'commander'

export function registerOpenApiCommand(program: Command): void {
  program
    .command('openapi')
    .description('write an OpenAPI 3.1 document assembled from schemas/')
    .option('--out <file>', 'output file', 'crm-api.openapi.json')
    .action(async (opts) => {
      const { writeOpenApi } = await import('../../openapi/build.ts')
      await writeOpenApi(opts.out)
      process.stdout.write(`wrote ${opts.out}\n`)
    })
}
