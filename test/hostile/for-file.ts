// What a test file that drives the CLI against the hostile server sets up once: the server process and a scratch
// folder for the runs' reports, both gone after the file's last test however it ended.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { startHostileProcess, type HostileProcess } from './process.ts'

export interface HostileForFile {
  /** Set before the file's first test. */
  hostile: HostileProcess
  /** Set before the file's first test; a folder of its own under the system's temporary folder. */
  dir: string
}

/** Registers the file's beforeAll/afterAll; read the fields inside tests (they are set once the file starts). */
export function hostileForFile(dirPrefix: string, options: Parameters<typeof startHostileProcess>[0] = {}): HostileForFile {
  const held = {} as HostileForFile
  beforeAll(async () => {
    held.hostile = await startHostileProcess(options)
    held.dir = mkdtempSync(join(tmpdir(), dirPrefix))
  })
  afterAll(async () => {
    await held.hostile?.close()
    if (held.dir) rmSync(held.dir, { recursive: true, force: true })
  })
  return held
}
