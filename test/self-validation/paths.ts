import { join } from 'node:path'
import { PROJECT_ROOT } from '../../src/version.ts'

/** Partial results of the self-validation files, assembled by summary.ts after the run. */
export const SELFCHECK_DIR = join(PROJECT_ROOT, 'reports', '.selfcheck')
export const MUTATION_REPORT = join(PROJECT_ROOT, 'reports', 'mutation-report.md')
export const FAULT_SHARDS = 2
