// Writes the report files of one run, every one rendered from the same RunReport, and refreshes reports/latest/.
import { copyFile, mkdir, readdir, rename, unlink, writeFile } from 'node:fs/promises'
import { join, relative, resolve, isAbsolute } from 'node:path'
import { renderBadge } from './badge.ts'
import { renderHtml } from './html.ts'
import { renderJunit } from './junit.ts'
import type { RenderHtmlOptions } from './html.ts'
import { toReportJson } from './json.ts'
import { renderSummaryMarkdown } from './markdown.ts'
import { maskSecrets, maskSecretsIn, mergeMasked } from './secrets.ts'
import type { MaskedSecret, SecretList } from './secrets.ts'
import type { RunReport } from './types.ts'

export const REPORT_FILES = ['report.json', 'report.html', 'summary.md', 'badge.json', 'junit.xml'] as const

export interface WriteReportOptions extends RenderHtmlOptions {
  /**
   * When given, every form of every secret is masked in the report before any file is rendered, and in each
   * rendered file again (a last line of defence behind the transport's redaction); what was masked is
   * recorded in report.json (`secretsMasked`). The files are written whatever was found.
   */
  secrets?: SecretList
}

export interface WrittenReport {
  paths: string[]
  /** The report as written (secrets masked, `secretsMasked` set when any was). */
  report: RunReport
  masked: MaskedSecret[]
}

/** Write to a temporary name, then rename: a reader (an artifact upload, a browser) never sees half a file. */
async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`
  await writeFile(tmp, text, 'utf8')
  await rename(tmp, path)
}

export function renderReportFiles(report: RunReport, options: RenderHtmlOptions = {}): Record<(typeof REPORT_FILES)[number], string> {
  return {
    'report.json': toReportJson(report),
    'report.html': renderHtml(report, options),
    'summary.md': renderSummaryMarkdown(report),
    'badge.json': `${JSON.stringify(renderBadge(report), null, 2)}\n`,
    'junit.xml': renderJunit(report),
  }
}

/** Masks every secret in the report; a report that held one says so in `secretsMasked`. */
export function maskReport(report: RunReport, secrets: SecretList | undefined): { report: RunReport; masked: MaskedSecret[] } {
  if (!secrets) return { report, masked: [] }
  const { value, masked } = maskSecretsIn(report, secrets)
  if (masked.length === 0) return { report, masked }
  return { report: { ...value, secretsMasked: mergeMasked([...(report.secretsMasked ?? [])], masked) }, masked }
}

/** Renders report.json, report.html, summary.md, badge.json and junit.xml into `dir` (created if missing). */
export async function writeReportFiles(report: RunReport, dir: string, options: WriteReportOptions = {}): Promise<WrittenReport> {
  const { report: safe, masked } = maskReport(report, options.secrets)
  const texts = renderReportFiles(safe, options)
  await mkdir(dir, { recursive: true })
  const paths: string[] = []
  for (const name of REPORT_FILES) {
    let text = texts[name]
    if (options.secrets) {
      // Rendering cannot add a secret the report does not hold; should one appear anyway, it is masked too.
      const again = maskSecrets(text, options.secrets)
      text = again.text
      mergeMasked(masked, again.masked)
    }
    const path = join(dir, name)
    await writeAtomic(path, text)
    paths.push(path)
  }
  return { paths, report: safe, masked }
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
  const files = (await readdir(from, { withFileTypes: true }))
    .filter((e) => e.isFile() && !e.name.endsWith('.tmp'))
    .map((e) => e.name)
    .sort()
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
