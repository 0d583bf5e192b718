// MANIFEST.sha256: the SHA-256 of every file of a submission, in `sha256sum` format, so that both
// `crm-conformance verify-submission` and `sha256sum -c MANIFEST.sha256` check it. The manifest's own digest
// is what a vendor publishes: it pins every byte of the submission.
import { createHash } from 'node:crypto'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

export const MANIFEST_FILE = 'MANIFEST.sha256'

export interface ManifestEntry {
  file: string
  sha256: string
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}

/** A submission is flat: a listed name is a plain file name, never a path. */
export function isPlainFileName(name: string): boolean {
  return name.length > 0 && name !== '.' && name !== '..' && !/[/\\\0\n\r]/.test(name)
}

/** `<hex>  <name>` lines sorted by name (byte order), with a final newline: `sha256sum` text mode. */
export function renderManifest(entries: readonly ManifestEntry[]): string {
  const sorted = [...entries].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
  return sorted.map((e) => `${e.sha256}  ${e.file}\n`).join('')
}

/** Parses a manifest; every line that is not `<64 hex>  <name>` (or `<64 hex> *<name>`) is a problem. */
export function parseManifest(text: string): { entries: ManifestEntry[]; problems: string[] } {
  const entries: ManifestEntry[] = []
  const problems: string[] = []
  const seen = new Set<string>()
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  lines.forEach((line, i) => {
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line)
    if (!m) {
      problems.push(`${MANIFEST_FILE} line ${i + 1} is not "<sha256>  <file>"`)
      return
    }
    const file = m[2]!
    if (!isPlainFileName(file) || file === MANIFEST_FILE)
      problems.push(`${MANIFEST_FILE} line ${i + 1} names ${JSON.stringify(file)}: only the submission's own files may be listed`)
    else if (seen.has(file)) problems.push(`${MANIFEST_FILE} lists ${file} twice`)
    else {
      seen.add(file)
      entries.push({ file, sha256: m[1]! })
    }
  })
  if (entries.length === 0 && problems.length === 0) problems.push(`${MANIFEST_FILE} is empty`)
  return { entries, problems }
}

/** Digests of the named files of `dir`. */
export async function manifestFor(dir: string, files: readonly string[]): Promise<ManifestEntry[]> {
  return Promise.all(files.map(async (file) => ({ file, sha256: sha256(await readFile(join(dir, file))) })))
}

/**
 * Writes MANIFEST.sha256 over `files` (default: every plain file of `dir` but the manifest) and returns the
 * manifest's own digest.
 */
export async function writeManifest(dir: string, files?: readonly string[]): Promise<string> {
  const names = files ?? (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile() && e.name !== MANIFEST_FILE).map((e) => e.name)
  const text = renderManifest(await manifestFor(dir, names))
  await writeFile(join(dir, MANIFEST_FILE), text, 'utf8')
  return sha256(text)
}
