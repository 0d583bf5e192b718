// report.json's `explored` block: the cells (operation × axis × value form) the explorer's requests fell in, as
// its checks observed them (`explore.cells`), over the universe of src/coverage/explored.ts; with `--history`, the
// union with the cells every earlier run of the file explored. Undefined when no explore check ran and the
// history holds no explored cell.
import type { CheckResult } from '../checks/types.ts'
import { exploredBlock, type ExploredBlock } from '../coverage/explored.ts'

/** The observation an explore check files the exploration's cells under. */
export const EXPLORED_CELLS = 'explore.cells'

export function exploredOfRun(
  results: readonly Pick<CheckResult, 'id' | 'observations'>[],
  history?: { file: string; earlier: readonly (readonly string[] | undefined)[] },
): ExploredBlock | undefined {
  const cells = results.flatMap((r) => {
    const value = r.id.startsWith('explore.') ? r.observations?.[EXPLORED_CELLS] : undefined
    return Array.isArray(value) ? value.filter((c): c is string => typeof c === 'string') : []
  })
  const ran = results.some((r) => r.id.startsWith('explore.'))
  const earlier = (history?.earlier ?? []).filter((cells): cells is readonly string[] => Array.isArray(cells) && cells.length > 0)
  if (!ran && earlier.length === 0) return undefined
  return exploredBlock(cells, history ? { file: history.file, earlier } : undefined)
}
