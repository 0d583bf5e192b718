// The suite areas stay apart: a file of one area folder imports src/, its own folder and suites/shared/, never
// another area's folder; suites/shared/ imports no area. A helper two areas need moves to suites/shared/.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { PROJECT_ROOT } from '../src/version.ts'

const SUITES = join(PROJECT_ROOT, 'suites')

function specifiers(source: string): string[] {
  return [...source.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm)].map((m) => m[1]!)
}

test('no area folder imports another area folder, and suites/shared/ imports none', () => {
  const crossings: string[] = []
  for (const folder of readdirSync(SUITES, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const file of readdirSync(join(SUITES, folder.name)).filter((f) => f.endsWith('.ts'))) {
      const at = `${folder.name}/${file}`
      for (const spec of specifiers(readFileSync(join(SUITES, folder.name, file), 'utf8'))) {
        const sibling = /^\.\.\/([^/.][^/]*)\//.exec(spec)?.[1]
        if (sibling === undefined) continue
        const allowed = folder.name !== 'shared' && sibling === 'shared'
        if (!allowed) crossings.push(`${at} imports ${spec}`)
      }
    }
  }
  expect(crossings).toEqual([])
})

test('a suite file reaches src/ only through the check kit (src/checks/index.ts); a vitest file also through the vitest glue', () => {
  const strays: string[] = []
  const walk = (dir: string, rel: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const at = rel ? `${rel}/${entry.name}` : entry.name
      if (entry.isDirectory()) walk(join(dir, entry.name), at)
      else if (entry.name.endsWith('.ts')) {
        for (const spec of specifiers(readFileSync(join(dir, entry.name), 'utf8'))) {
          if (!/(^|\/)src\//.test(spec)) continue
          const kit = spec.endsWith('src/checks/index.ts')
          const glue = entry.name.endsWith('.suite.ts') && spec.endsWith('src/run/vitest-glue.ts')
          if (!kit && !glue) strays.push(`${at} imports ${spec}`)
        }
      }
    }
  }
  walk(SUITES, '')
  expect(strays).toEqual([])
})
