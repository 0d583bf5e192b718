// Run-wide observations of what the server chose (`delete.status`, `list.lastPage`): each value noted once,
// whichever checks meet it, and merged into the report's capabilities. The runner gives it to every check as
// `ctx.noteCapability`.

/** Adds `value` to the values noted under `name`, unless it is there already. */
export function noteCapabilityIn(capabilities: Record<string, unknown>, name: string, value: string): void {
  const seen = (capabilities[name] as string[] | undefined) ?? []
  if (!seen.includes(value)) capabilities[name] = [...seen, value]
}
