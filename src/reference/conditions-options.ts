// The `serve` flags that make the reference server play a deployment condition (conditions.ts). Kept apart
// from the server so the command line can declare them without loading it.
import { InvalidArgumentError, Option, type Command } from 'commander'
import type { ServerConditions } from './conditions.ts'
import type { LimiterShape } from './rate-limit.ts'

const SHAPES: readonly LimiterShape[] = ['token-bucket', 'fixed-window', 'sliding-window']

const milliseconds = (flag: string) => (value: string) => {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || n > 600_000) throw new InvalidArgumentError(`${flag} must be a whole number of milliseconds from 0 to 600000`)
  return n
}

export function addConditionOptions(command: Command): Command {
  return command
    .option('--rate-limit <n>', "the main key's per-minute limit (default 600, the spec's §8 default)", (value: string) => {
      const n = Number(value)
      if (!Number.isInteger(n) || n < 1 || n > 10_000_000) throw new InvalidArgumentError('--rate-limit must be an integer from 1 to 10000000')
      return n
    })
    .addOption(
      new Option(
        '--limiter <shape>',
        "the shape of every key's per-minute limit: token-bucket (default), fixed-window (reset on the minute), sliding-window",
      ).choices(SHAPES),
    )
    .option('--delay <ms>', 'answer every request this many milliseconds late', milliseconds('--delay'))
    .option('--jitter <ms>', 'vary the delay by up to this much either way', milliseconds('--jitter'))
    .option('--idle-close <ms>', 'close keep-alive connections idle this long, unannounced, as a load balancer does', milliseconds('--idle-close'))
    .option('--list-lag <ms>', 'lists show a write this many milliseconds late, as behind a search index; reads by id at once', milliseconds('--list-lag'))
    .option(
      '--relay-delay <ms>',
      "put a TCP relay in front that delays every byte and close this long each way (the printed base URL is the relay's)",
      milliseconds('--relay-delay'),
    )
}

export interface ConditionFlags {
  limiter?: LimiterShape
  delay?: number
  jitter?: number
  idleClose?: number
  relayDelay?: number
  listLag?: number
}

export function conditionsFromFlags(flags: ConditionFlags): ServerConditions {
  const conditions: ServerConditions = {}
  if (flags.limiter !== undefined) conditions.limiter = flags.limiter
  if (flags.delay !== undefined) conditions.responseDelayMs = flags.delay
  if (flags.jitter !== undefined) conditions.responseJitterMs = flags.jitter
  if (flags.idleClose !== undefined) conditions.idleCloseMs = flags.idleClose
  if (flags.relayDelay !== undefined) conditions.relayDelayMs = flags.relayDelay
  return conditions
}

/** One line naming the conditions in force, for the serve banner; empty when none. */
export function describeConditions(conditions: ServerConditions, mainLimit: number): string {
  const parts = [`main key ${mainLimit}/min, ${conditions.limiter ?? 'token-bucket'}`]
  if (conditions.responseDelayMs || conditions.responseJitterMs)
    parts.push(`every response ${conditions.responseDelayMs ?? 0} ms ± ${conditions.responseJitterMs ?? 0} late`)
  if (conditions.idleCloseMs !== undefined) parts.push(`idle connections closed after ${conditions.idleCloseMs} ms`)
  if (conditions.relayDelayMs !== undefined) parts.push(`behind a relay adding ${conditions.relayDelayMs} ms each way`)
  return parts.join('; ')
}
