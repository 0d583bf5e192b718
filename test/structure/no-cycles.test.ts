// No import cycle in src/ or suites/, `import type`, `export … from` and `import()` included (issue 21): each
// module can be read, tested and moved knowing only what it imports. The TypeScript compiler's own scanner
// (`preProcessFile`, through ./imports.ts) lists a file's imports, so what counts as an import is what tsc counts.
import { describe, expect, it } from 'vitest'
import { importGraph } from './imports.ts'

/** The strongly connected components with more than one module, or a module importing itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string) => {
    index.set(node, counter)
    low.set(node, counter++)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || graph.get(node)!.includes(node)) found.push(component.sort())
  }
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node)
  return found
}

/** One line per cycle member: the module and the imports that keep it in the cycle. */
function showCycle(component: string[], graph: Map<string, string[]>): string {
  const members = new Set(component)
  return component
    .map(
      (m) =>
        `  ${m} -> ${graph
          .get(m)!
          .filter((t) => members.has(t))
          .join(', ')}`,
    )
    .join('\n')
}

/** The shortest import path from `from` to a module `wanted` accepts, or undefined. */
function pathTo(graph: Map<string, string[]>, from: string, wanted: (module: string) => boolean): string[] | undefined {
  const previous = new Map<string, string>([[from, from]])
  const queue = [from]
  while (queue.length > 0) {
    const module = queue.shift()!
    for (const next of graph.get(module) ?? []) {
      if (previous.has(next)) continue
      previous.set(next, module)
      if (wanted(next)) {
        const path = [next]
        for (let at = module; at !== from; at = previous.get(at)!) path.unshift(at)
        return [from, ...path]
      }
      queue.push(next)
    }
  }
  return undefined
}

describe('the import graph of src/ and suites/', () => {
  const graph = importGraph()

  it('is read whole: type imports, re-exports and dynamic imports are edges', () => {
    expect(graph.get('src/checks/types.ts')).toContain('src/vocabulary.ts')
    expect(graph.get('src/config/config.ts')).toContain('src/vocabulary.ts')
    expect(graph.get('src/run/target.ts')).toContain('src/reference/index.ts')
    expect(graph.get('src/cli/commands/list.ts')).toContain('suites/index.ts')
  })

  it('has no cycle', () => {
    const found = cycles(graph)
    expect(found.map((c) => `cycle of ${c.length}:\n${showCycle(c, graph)}`).join('\n')).toBe('')
  })

  it('keeps the vocabulary a leaf', () => {
    expect(graph.get('src/vocabulary.ts')).toEqual([])
  })

  it('keeps the reference server out of what the checks are made of: the engine, the checks, the configuration, the HTTP client and the suites', () => {
    // Only the run path starts it (src/run/target.ts); runInProcess and the vitest integration the *.suite.ts files
    // call are part of that path (src/run/).
    const entryPoints = /\.suite\.ts$|\.test\.ts$/
    const reaching = [...graph.keys()]
      .filter((from) => /^(src\/(engine|checks|config|http)|suites)\//.test(from) && !entryPoints.test(from))
      .flatMap((from) => {
        const path = pathTo(graph, from, (m) => m.startsWith('src/reference/'))
        return path ? [path.join(' -> ')] : []
      })
    expect(reaching).toEqual([])
  })
})
