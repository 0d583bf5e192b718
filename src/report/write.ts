// Writes the report files of one run, and refreshes reports/latest/. junit.xml is vitest's own reporter's.
import { copyFile, mkdir, readdir, rename, unlink, writeFile } from 'node:fs/promises'
import { join, relative, resolve, isAbsolute } from 'node:path'
import { renderBadge } from './badge.ts'
import { renderHtml } from './html.ts'
import type { RenderHtmlOptions } from './html.ts'
import { toReportJson } from './json.ts'
import { renderSummaryMarkdown } from './markdown.ts'
import { assertNoSecrets } from './secrets.ts'
import type { SecretList } from './secrets.ts'
import type { RunReport } from './types.ts'

export const REPORT_FILES = ['report.json', 'report.html', 'summary.md', 'badge.json'] as const

export interface WriteReportOptions extends RenderHtmlOptions {
  /** When given, every file is checked before any is written; a leak throws SecretLeakError and writes nothing. */
  secrets?: SecretList
}

/** Write to a temporary name, then rename: a reader (an artifact upload, a browser) never sees half a file. */
async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`
  await writeFile(tmp, text, 'utf8')
  await rename(tmp, path)
}

/** Renders report.json, report.html, summary.md and badge.json into `dir` (created if missing); returns their paths. */
export async function writeReportFiles(report: RunReport, dir: string, options: WriteReportOptions = {}): Promise<string[]> {
  const texts: Record<(typeof REPORT_FILES)[number], string> = {
    'report.json': toReportJson(report),
    'report.html': renderHtml(report, options),
    'summary.md': renderSummaryMarkdown(report),
    'badge.json': `${JSON.stringify(renderBadge(report), null, 2)}\n`,
  }
  if (options.secrets) for (const name of REPORT_FILES) assertNoSecrets(texts[name], options.secrets, name)
  await mkdir(dir, { recursive: true })
  const paths: string[] = []
  for (const name of REPORT_FILES) {
    const path = join(dir, name)
    await writeAtomic(path, texts[name])
    paths.push(path)
  }
  return paths
}

function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

/**
 * Makes `latestDir` a copy of the files of `dir` (top level only, junit.xml included): each file is replaced
 * atomically, and files of an older run that this run did not produce are removed. Subfolders of `latestDir`
 * and its dotfiles (.gitkeep) are left alone. Refuses when one folder contains the other (`copyToLatest('reports/x', 'reports')` would
 * otherwise delete other runs' files). Returns the paths written.
 */
export async function copyToLatest(dir: string, latestDir: string): Promise<string[]> {
  const from = resolve(dir)
  const to = resolve(latestDir)
  if (isInside(from, to) || isInside(to, from)) {
    throw new Error(`copyToLatest: ${latestDir} and ${dir} must be separate folders (neither inside the other)`)
  }
  const files = (await readdir(from, { withFileTypes: true })).filter((e) => e.isFile() && !e.name.endsWith('.tmp')).map((e) => e.name).sort()
  await mkdir(to, { recursive: true })
  const written: string[] = []
  for (const name of files) {
    const target = join(latestDir, name)
    const tmp = join(to, `${name}.${process.pid}.tmp`)
    await copyFile(join(from, name), tmp)
    await rename(tmp, join(to, name))
    written.push(target)
  }
  const keep = new Set(files)
  for (const entry of await readdir(to, { withFileTypes: true })) {
    // Dotfiles (.gitkeep) are not a run's output.
    if (entry.isFile() && !keep.has(entry.name) && !entry.name.startsWith('.')) await unlink(join(to, entry.name))
  }
  return written
}
