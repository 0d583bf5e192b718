// §4.3 exact string filters given a value holding both quotes, ' and ": an exact filter reads them as part of the
// value. A server that pastes the value into an SQL string literal breaks here: where `"` ends the literal the
// query is a syntax error (a 5xx); where `'` ends it, the tail `' OR 'a'='a` becomes a condition every record
// meets and the whole collection comes back. One read per filter, for a value no record holds, so there is no
// write to wait for (the filters whose records the run writes with quotes are the wildcard plans, near-miss.ts).
import { expectErrorEnvelope } from '../../src/checks/index.ts'
import type { CheckContext, FilterSpec, ResourceName } from '../../src/checks/index.ts'
import { randomUUID } from 'node:crypto'
import { describeQuery, expectSound, filterQuery } from './queries.ts'

/** A value of the filter's form holding ' and ", whose tail reads as `OR 'a'='a` once a `'` ends a literal. */
export function quotedValue(filter: FilterSpec): string {
  const t = randomUUID().replace(/-/g, '').slice(0, 10)
  // A quoted local part (RFC 5322) keeps it an address; lower case, as §4.3 asks for most address filters.
  if (filter.param === 'email') return `"crmconf.q${t}' or 'a'='a"@example.com`
  // No E.164 number holds a quote: Ofcom's drama range with the quotes after it matches no subscriber.
  if (filter.match === 'e164') return `+447700900${String(parseInt(t.slice(0, 6), 16) % 1000).padStart(3, '0')}"${t}' OR 'a'='a`
  const value = `crmconf-q"${t}' OR 'a'='a`
  return filter.match === 'uppercase' ? value.toUpperCase() : value
}

/**
 * Sends the quoted value and judges the answer: 200 with only records holding that exact value (none, in practice),
 * or a 400 with the error envelope (a workspace key it does not know, an address or number it will not read, §7.3);
 * a 5xx, or any other answer, breaks §4.3.
 */
export async function probeQuotes(ctx: CheckContext, resource: ResourceName, filter: FilterSpec): Promise<void> {
  const value = quotedValue(filter)
  const res = await filterQuery(ctx, resource, filter, value, false)
  ctx.observe('status', res.status)
  if (res.status === 400) {
    expectErrorEnvelope(res, '§7.1')
    return
  }
  if (res.status !== 200) {
    ctx.fail(
      `${describeQuery(resource, filter, value)}: status is ${res.status}, expected 200 with only the ${resource}s holding that value (§4.3)${res.status >= 500 ? ': the quotes broke the query' : ''}`,
      {
        expected: `200 with the records whose ${filter.field} is exactly the value, quotes included (§4.3), or a 400 with the error envelope (§7.3)`,
        exchanges: [res.exchange],
        data: res.body,
      },
    )
  }
  expectSound(ctx, res, resource, filter, value, ', for a value holding quotes that no record holds: the quotes were read as query syntax')
}
