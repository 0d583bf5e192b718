import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MANIFEST_FILE, parseManifest, renderManifest, sha256, writeManifest } from './manifest.ts'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crm-manifest-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

function hasSha256sum(): boolean {
  try {
    execFileSync('sha256sum', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

describe('manifest', () => {
  it('renders sha256sum text mode, sorted by name, and parses back', () => {
    const text = renderManifest([
      { file: 'report.json', sha256: sha256('b') },
      { file: 'README.md', sha256: sha256('a') },
    ])
    expect(text).toBe(`${sha256('a')}  README.md\n${sha256('b')}  report.json\n`)
    expect(parseManifest(text)).toEqual({
      entries: [
        { file: 'README.md', sha256: sha256('a') },
        { file: 'report.json', sha256: sha256('b') },
      ],
      problems: [],
    })
  })

  it('accepts the binary-mode marker, and names every line it cannot use', () => {
    expect(parseManifest(`${sha256('a')} *a.txt\n`).entries).toEqual([{ file: 'a.txt', sha256: sha256('a') }])
    const { problems } = parseManifest(`${sha256('a')}  ../etc/passwd\nnot a line\n${sha256('a')}  a\n${sha256('b')}  a\n${sha256('c')}  ${MANIFEST_FILE}\n`)
    expect(problems).toEqual([
      'MANIFEST.sha256 line 1 names "../etc/passwd": only the submission\'s own files may be listed',
      'MANIFEST.sha256 line 2 is not "<sha256>  <file>"',
      'MANIFEST.sha256 lists a twice',
      'MANIFEST.sha256 line 5 names "MANIFEST.sha256": only the submission\'s own files may be listed',
    ])
    expect(parseManifest('').problems).toEqual(['MANIFEST.sha256 is empty'])
  })

  it('writes the manifest of a folder and returns its own digest', async () => {
    await writeFile(join(dir, 'a.json'), '{"a":1}\n')
    await writeFile(join(dir, 'b.md'), '# b\n')
    const digest = await writeManifest(dir)
    const text = await readFile(join(dir, MANIFEST_FILE), 'utf8')
    expect(digest).toBe(sha256(text))
    expect(parseManifest(text).entries.map((e) => e.file)).toEqual(['a.json', 'b.md'])
  })

  it.skipIf(!hasSha256sum())('is checked by sha256sum -c as well', async () => {
    await writeFile(join(dir, 'report.json'), '{}\n')
    await writeManifest(dir)
    expect(execFileSync('sha256sum', ['-c', MANIFEST_FILE], { cwd: dir, encoding: 'utf8' })).toBe('report.json: OK\n')
    await writeFile(join(dir, 'report.json'), '{} \n')
    expect(() => execFileSync('sha256sum', ['-c', MANIFEST_FILE], { cwd: dir, stdio: 'pipe' })).toThrow()
  })
})
