// Child-process entry for the memory test of a whole run: the CLI's `main` with the given arguments, then one
// JSON line on stderr with the process's peak resident memory (what a CI runner must have).
import { main } from '../../src/cli/main.ts'

const code = await main(process.argv.slice(2))
process.stderr.write(`\n${JSON.stringify({ code, maxRssKb: process.resourceUsage().maxRSS })}\n`)
process.exit(code)
