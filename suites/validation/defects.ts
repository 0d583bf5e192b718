// The defects a §4.4 body table makes explicit, as data: a required field left out, a value of the wrong type
// for one representative field of each type, and a value outside each listed enum. Formats the spec leaves open
// (email syntax, string lengths: §8 "not shown") are never called wrong.
import { parseFieldType } from '../../src/checks/index.ts'
import type { BodySpec, ParsedFieldType, AnyRecord } from '../../src/checks/index.ts'

export interface BodyDefect {
  label: string
  field: string
  /** The body with the defect, from a valid one. */
  apply(valid: AnyRecord): AnyRecord
}

/** One wrong value per type, or two where both mistakes are common (a fraction and a numeric string). */
const WRONG: Record<Exclude<ParsedFieldType['base'], 'enum'>, unknown[]> = {
  string: [12345],
  email: [12345],
  uuid: ['not-a-uuid'],
  integer: [12.5, '100'],
  'string[]': ['crmconf'],
  object: ['crmconf'],
  'object[]': ['crmconf'],
  'date-time': ['yesterday'],
  date: ['yesterday'],
}

/** Not one of any list the spec gives. */
export const UNLISTED = 'crmconf-unlisted'

const set = (field: string, value: unknown) => (valid: AnyRecord) => ({ ...valid, [field]: value })

export function missingRequired(body: BodySpec): BodyDefect[] {
  return body.required.map((field) => ({
    label: `${field} missing`,
    field,
    apply: (valid) => Object.fromEntries(Object.entries(valid).filter(([f]) => f !== field)),
  }))
}

/** The first field of each type in the table's order, given a value of another type. */
export function wrongTypes(body: BodySpec): BodyDefect[] {
  const seen = new Set<string>()
  const out: BodyDefect[] = []
  for (const [field, type] of Object.entries(body.fields)) {
    const { base } = parseFieldType(type)
    if (base === 'enum' || seen.has(base)) continue
    seen.add(base)
    for (const value of WRONG[base]) out.push({ label: `${field} given ${JSON.stringify(value)}`, field, apply: set(field, value) })
  }
  return out
}

export function outsideEnums(body: BodySpec): BodyDefect[] {
  return Object.entries(body.fields).flatMap(([field, type]) => {
    const parsed = parseFieldType(type)
    if (parsed.base !== 'enum') return []
    return [{ label: `${field} given "${UNLISTED}" (not ${parsed.values!.join(', ')})`, field, apply: set(field, UNLISTED) }]
  })
}
