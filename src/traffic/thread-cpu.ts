// The CPU time of the calling thread (Linux: /proc/thread-self/stat), so a --jobs run can say how its work split
// between the reading thread and the workers whatever else the machine runs (bench-traffic prints it). Elsewhere,
// or when /proc cannot be read: undefined. Node 20 has no per-thread counter of its own (process.threadCpuUsage
// came in Node 23.9).
import { readFileSync } from 'node:fs'

/** USER_HZ, the unit of /proc's times: 100 on every Linux architecture Node runs on. */
const TICKS_PER_SECOND = 100

/** Milliseconds of CPU (user and system) this thread has used, or undefined. */
export function threadCpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8')
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const utime = Number(fields[11])
    const stime = Number(fields[12])
    return Number.isFinite(utime) && Number.isFinite(stime) ? ((utime + stime) * 1000) / TICKS_PER_SECOND : undefined
  } catch {
    return undefined
  }
}
