// The digest of the suite's code that ran: the files of src/ and suites/ beside this module (the TypeScript of a
// checkout, or dist/ of an installed package) and the shipped spec/ and schemas/. A customer who installs the
// same version compares it: an edited copy of the suite gives another digest.
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PROJECT_ROOT } from '../version.ts'
import type { SuiteCode } from './attestation.ts'
import { sha256 } from './manifest.ts'

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])
  return entries.filter((e) => e.isFile() && !e.name.endsWith('.test.ts') && !e.name.endsWith('.test.js')).map((e) => join(e.parentPath, e.name))
}

export async function suiteCodeDigest(): Promise<SuiteCode> {
  // src/certify/code-digest.ts → the folder holding src/ and suites/ (the project root, or dist/).
  const codeRoot = dirname(dirname(dirname(fileURLToPath(import.meta.url))))
  const roots = [join(codeRoot, 'src'), join(codeRoot, 'suites'), join(PROJECT_ROOT, 'spec'), join(PROJECT_ROOT, 'schemas')]
  const files = (await Promise.all(roots.map(filesUnder))).flat()
  const lines = await Promise.all(files.map(async (f) => `${sha256(await readFile(f))}  ${relative(PROJECT_ROOT, f).split(sep).join('/')}\n`))
  lines.sort()
  return { digest: sha256(lines.join('')), files: files.length, tree: relative(PROJECT_ROOT, codeRoot) || '.' }
}
