// bench:traffic-jobs' figures that hold whatever else the machine runs (a shared machine's wall times do not: a
// process's threads share one fair share of it): the CPU time each thread spent, and what they allow on idle cores.
import { availableParallelism } from 'node:os'

export interface ThreadFigures {
  /** CPU time of the whole process (every thread: GC and compiler helpers too). */
  cpuMs: number
  threadCpuMs?: { reader?: number; workers: (number | undefined)[] }
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`

/**
 * Lines for --jobs 1's and --jobs N's runs: each thread's CPU time (the best run of each), and the wall time each
 * would take on idle cores, estimated as the larger of its busiest thread's CPU time and its whole CPU time shared
 * by the cores; their ratio is the speed-up a quiet machine would show.
 */
export function threadSplit(one: ThreadFigures[], many: ThreadFigures[], jobs: number, cores = availableParallelism()): string[] {
  const threads = (r: ThreadFigures) => [r.threadCpuMs?.reader, ...(r.threadCpuMs?.workers ?? [])]
  const known = (r: ThreadFigures) => threads(r).every((ms) => ms !== undefined)
  const busiest = (r: ThreadFigures) => Math.max(...(threads(r) as number[]))
  const idleWall = (r: ThreadFigures) => Math.max(busiest(r), r.cpuMs / cores)
  const best = (runs: ThreadFigures[]) => runs.filter(known).reduce<ThreadFigures | undefined>((a, b) => (a && idleWall(a) <= idleWall(b) ? a : b), undefined)
  const [a, b] = [best(one), best(many)]
  if (!a || !b) return ['CPU per thread: not known here (Linux /proc/thread-self only)']
  const split = (r: ThreadFigures) =>
    `${threads(r)
      .map((ms) => s(ms!))
      .join(' + ')} (process ${s(r.cpuMs)})`
  const sum = (r: ThreadFigures) => threads(r).reduce((total: number, ms) => total + ms!, 0)
  const sums = (runs: ThreadFigures[]) =>
    runs
      .filter(known)
      .map((r) => s(sum(r)))
      .join(', ')
  return [
    `CPU per thread, reader then workers (best run of each): --jobs 1 ${split(a)}; --jobs ${jobs} ${split(b)}`,
    `the threads' CPU in all, every run: --jobs 1 ${sums(one)}; --jobs ${jobs} ${sums(many)}; best --jobs ${jobs} / best --jobs 1: ${(Math.min(...many.filter(known).map(sum)) / Math.min(...one.filter(known).map(sum))).toFixed(2)}x (at most ~1.25x, split evenly, for 1.6x on 2 cores)`,
    `on ${cores} idle cores (the larger of the busiest thread and the process's CPU over the cores): --jobs 1 ${s(idleWall(a))}, --jobs ${jobs} ${s(idleWall(b))}: ${(idleWall(a) / idleWall(b)).toFixed(2)}x (threads alone: ${(busiest(a) / busiest(b)).toFixed(2)}x)`,
  ]
}
