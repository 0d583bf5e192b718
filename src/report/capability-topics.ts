// The open questions of the spec ("not shown") and which capability keys of report.json answer each: what
// CAPABILITIES.md (src/certify/capabilities.ts) and `compare` (compare.ts) group a server's choices by.

export interface CapabilityTopic {
  id: string
  heading: string
  /** The clause that leaves the choice open. */
  clause: string
  /** Does a capability key belong to this topic (tested on the lower-cased key, first topic wins)? */
  match: RegExp
}

// Each topic names the observations that answer one open question, by the runner's own keys
// (src/checks/operations.ts: `update.method`, `create.status`, `delete.status`, `list.lastPage`…) and the
// checks' observation names (`<check id>.<name>`). First match wins. Observations outside every topic (ids
// queried, counts, timings) differ from run to run; they stay in report.json and report.html only, so that
// this page diffs cleanly.
export const CAPABILITY_TOPICS: readonly CapabilityTopic[] = [
  { id: 'update-method', heading: 'Update method', clause: '§4.1', match: /^update\.method(\.|$)/ },
  { id: 'replace-method', heading: 'Replace method', clause: '§4.1', match: /^replace\.method(\.|$)/ },
  { id: 'success-codes', heading: 'Success status codes', clause: '§4.1', match: /^(create|update|replace)\.status$|\.createstatus$/ },
  { id: 'delete', heading: 'Delete responses (status and body)', clause: '§4.1', match: /^delete\.(status|body)$|\.deletestatus$|\.getafterdelete$/ },
  { id: 'last-page', heading: 'nextCursor on the last page', clause: '§4.1', match: /lastpage|nextcursor/ },
  { id: 'idempotency', heading: 'Same Idempotency-Key, different body', clause: '§4.1', match: /idempoten/ },
  { id: 'ratelimit-reset', heading: 'RateLimit-Reset format', clause: '§8', match: /^ratelimit\.reset$|\.reset\.form$/ },
  { id: 'states', heading: 'State names seen', clause: '§3', match: /^state\.names\./ },
  { id: 'state-refusal', heading: "Answer to a write the record's state forbids", clause: '§3, §7.8', match: /\.refusal(\.status)?$/ },
  { id: 'non-uuid-id', heading: 'A path id that is not a uuid', clause: '§4.1', match: /non-uuid-id\.status$/ },
  { id: 'missing-operations', heading: 'Operations the API does not have', clause: '§4.2', match: /-refused\.status$/ },
  { id: 'error-codes', heading: 'Error codes', clause: '§7.8', match: /(\.error\.code|\.errorcode)$/ },
  { id: 'me', heading: 'The /me response', clause: '§2, §5.9', match: /\.me\.(toplevelfields|showsscopes)$/ },
]

/** The capabilities of a report by topic (keys sorted within one), and the keys no topic takes. */
export function groupCapabilities(capabilities: Record<string, unknown>): { groups: Map<string, [string, unknown][]>; other: string[] } {
  const groups = new Map<string, [string, unknown][]>(CAPABILITY_TOPICS.map((t) => [t.id, []]))
  const other: string[] = []
  for (const key of Object.keys(capabilities).sort()) {
    const topic = CAPABILITY_TOPICS.find((t) => t.match.test(key.toLowerCase()))
    if (topic) groups.get(topic.id)!.push([key, capabilities[key]])
    else other.push(key)
  }
  return { groups, other }
}

/** One line, stable: strings as they are, everything else as compact JSON. */
export function capabilityText(value: unknown): string {
  if (typeof value === 'string') return value
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}
