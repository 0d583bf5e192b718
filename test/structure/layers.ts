// The layer table: every folder of src/ (and suites/) on one floor, bottom to top. A module imports its own
// folder and folders on lower floors, never a folder beside it on its floor or above it, so a folder's floor says
// what it may know: the vocabulary knows nothing, the check kit knows nothing of how a run is scheduled, the run
// path nothing of the command line. `layers.test.ts` enforces it and keeps docs/ARCHITECTURE.md's copy equal.
// A test file (`*.test.ts`) is an entry point, not a floor: it may start whatever proves its module.

export interface Floor {
  /** Folder names: `src/<name>/`, `src/<name>.ts` for the files at the root of src/, `suites` for suites/. */
  folders: readonly string[]
  /** Why these folders stand here. */
  why: string
}

/** Bottom to top; a floor's number is its index. */
export const LAYERS: readonly Floor[] = [
  { folders: ['vocabulary', 'errors', 'version', 'text'], why: 'words, error codes, the package root, inert text: import nothing of the project' },
  { folders: ['spec', 'config'], why: "the spec's tables and clauses; the one reader of the environment and its defaults" },
  { folders: ['schemas', 'http'], why: 'the one schema registry (generated from the spec); the one HTTP client (configured by config)' },
  {
    folders: ['judge', 'generators', 'openapi', 'webhooks', 'reference', 'coverage'],
    why: 'pure judgements, body generators, the OpenAPI document, the webhook verifier and sink, the reference server, the requirement matrix: each built on the spec, schemas and client alone',
  },
  { folders: ['checks'], why: 'the check kit: what a check is and everything it may use' },
  { folders: ['report', 'diff'], why: 'report.json and what renders from it; two reports compared: rows of checks, never a run' },
  {
    folders: ['engine', 'certify', 'traffic'],
    why: 'three makers of verdicts: the session, scheduler and clean-up that run checks; the certification profile and submission; the verifier of recorded traffic',
  },
  { folders: ['run'], why: 'the one run path: target, gate, pre-flight, execution, waivers, report files' },
  { folders: ['suites'], why: 'the catalogue of checks, and its vitest integration over the run path' },
  { folders: ['cli', 'selfcheck'], why: 'the commands; what proves the suite against the reference server and its faults' },
]

/** The folder a module of src/ or suites/ belongs to (`src/checks/index.ts` → `checks`, `src/errors.ts` → `errors`). */
export function folderOf(module: string): string {
  const parts = module.split('/')
  if (parts[0] === 'suites') return 'suites'
  return parts.length === 2 ? parts[1]!.replace(/\.ts$/, '') : parts[1]!
}

/** The floor of each folder. */
export function floors(layers: readonly Floor[] = LAYERS): Map<string, number> {
  return new Map(layers.flatMap((floor, index) => floor.folders.map((folder) => [folder, index] as const)))
}

/** The table as docs/ARCHITECTURE.md prints it, top floor first. */
export function layerTableMarkdown(layers: readonly Floor[] = LAYERS): string {
  const rows = layers.map((floor, index) => `| ${index} | ${floor.folders.map((f) => `\`${f}\``).join(', ')} | ${floor.why} |`).reverse()
  return ['| floor | folders | why there |', '|---|---|---|', ...rows].join('\n')
}
