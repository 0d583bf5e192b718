// Parsers of option values shared by the commands: lists (`--only a,b --only c`) and bounded integers.
import { InvalidArgumentError } from 'commander'

/** A repeatable, comma-separated option: every value, trimmed, empty ones dropped. */
export const collect = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
]

/** An integer option within [min, max], refused by name otherwise. */
export function integer(name: string, min: number, max: number) {
  return (value: string) => {
    const n = Number(value)
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}`)
    return n
  }
}
