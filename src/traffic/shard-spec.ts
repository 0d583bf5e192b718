// `--shard K/N` as the user types it (partition.ts routes by it): nothing imported, so the command line parses it cheaply.

/** `--shard K/N`: index K-1 of N. */
export interface ShardSpec {
  index: number
  count: number
}

/** `K/N` with 1 ≤ K ≤ N, as the user types it; undefined when it is not one. */
export function parseShard(text: string): ShardSpec | undefined {
  const found = /^\s*(\d{1,4})\s*\/\s*(\d{1,4})\s*$/.exec(text)
  if (!found) return undefined
  const k = Number(found[1])
  const n = Number(found[2])
  return k >= 1 && n >= 1 && k <= n ? { index: k - 1, count: n } : undefined
}
