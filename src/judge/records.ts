// Judgements on the records a response carries (§2), shared by the records checks and the traffic rules.
import { RESOURCES, type ResourceName } from '../spec/resources.ts'

/** §2 "Writable but not in the record": the write-only fields of the resource that the record shows. */
export function writeOnlyShown(resource: ResourceName, record: unknown): string[] {
  if (record === null || typeof record !== 'object') return []
  const fields = RESOURCES[resource].writeOnly
  const shown: string[] = []
  for (const f in fields) if (f in record) shown.push(f)
  return shown
}
