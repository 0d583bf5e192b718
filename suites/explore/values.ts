// The explorer's values: the generators' valid bodies (src/generators/), widened to legal forms the fixtures never
// use: text outside plain ASCII and at the short end, every enum value (the generators draw them all already),
// optional fields present and absent, date-times written in other UTC offsets (the same instant). Never a value a
// conformant server may legally refuse: no blank required text, addresses unique per record (a server may refuse
// a second contact with a live one's address), reminders before every due time (src/generators/leaves.ts).
import fc from 'fast-check'
import { RESOURCES, RUN_LABEL_FIELDS, bodyFields, runLabel, tagged, validBody, type CheckContext, type ResourceName } from '../../src/checks/index.ts'

/** Text a client in Kuala Lumpur, Shanghai or Zürich sends: accents, CJK, emoji, a right-to-left name, an apostrophe. */
export const WIDE_TEXT = ['Zoë Ñandú-Ångström', '陈美玲 有限公司', 'Café 🚀 Ltd', "O'Brien & Sons", 'محمد العلي', 'Ş', 'ｆｕｌｌ ｗｉｄｔｈ']

/** The same instant in another ISO 8601 form: an offset east or west of UTC, with its milliseconds when it has any. */
export function inOffset(iso: string, offsetMinutes: number): string {
  const ms = Date.parse(iso)
  const shifted = new Date(ms + offsetMinutes * 60_000).toISOString()
  const local = ms % 1000 === 0 ? shifted.slice(0, 19) : shifted.slice(0, 23)
  const sign = offsetMinutes < 0 ? '-' : '+'
  const abs = Math.abs(offsetMinutes)
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

export const OFFSETS = [0, 480, -300, 330, 345, -570]

/**
 * References a body may set to null that no rule of the spec fills or refuses: no parent account, no primary
 * account, no linked entity, no case category, no account or contact of a case or deal. Owners, teams,
 * assignees and a deal's pipeline are left out: routing (§1.6), the owner's application rules (§1.1) or a
 * default the spec does not name may fill or refuse them.
 */
const NULL_REFERENCES: Partial<Record<ResourceName, readonly string[]>> = {
  account: ['parentId'],
  contact: ['accountId'],
  task: ['entityId'],
  case: ['categoryId', 'subCategoryId', 'accountId', 'contactId'],
  opportunity: ['accountId', 'contactId'],
}

const freeText = new Map<ResourceName, Set<string>>()
const emailFields = new Map<ResourceName, string[]>()

/** Free text of a record (not a keyed value, an address, a phone number or a uuid). */
function isFreeText(resource: ResourceName, field: string): boolean {
  let fields = freeText.get(resource)
  if (!fields) {
    const shapes = [...bodyFields(resource, 'create'), ...(RESOURCES[resource].update ? bodyFields(resource, 'update') : [])]
    fields = new Set(shapes.filter((f) => f.kind === 'string' && !/^(phone|mobile|office|home|website|email)$/.test(f.name)).map((f) => f.name))
    freeText.set(resource, fields)
  }
  return fields.has(field)
}

/**
 * A body's text fields sometimes made non-ASCII, its date-times sometimes written in an offset, a reference it
 * left out sometimes sent as an explicit null. The picks are a stream of their own: a body drawn before has the
 * same fields and values, and sometimes one more null.
 */
function widened(resource: ResourceName, op: 'create' | 'update', body: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(body, fc.infiniteStream(fc.nat({ max: 99 }))).map(([b, picks]) => {
    const out: Record<string, unknown> = {}
    const draw = picks[Symbol.iterator]()
    for (const [field, value] of Object.entries(b)) {
      const pick = draw.next().value as number
      const type = RESOURCES[resource].record[field] ?? ''
      if (typeof value === 'string' && value.trim() !== '' && isFreeText(resource, field) && pick < 35)
        out[field] = `${WIDE_TEXT[pick % WIDE_TEXT.length]} ${value}`
      else if (typeof value === 'string' && type.startsWith('date-time') && pick < 60) out[field] = inOffset(value, OFFSETS[pick % OFFSETS.length]!)
      else out[field] = value
    }
    const fields = RESOURCES[resource][op]?.fields ?? {}
    for (const field of NULL_REFERENCES[resource] ?? []) if (field in fields && !(field in out) && (draw.next().value as number) < 20) out[field] = null
    return out
  })
}

/** A unique suffix for addresses: two records of one exploration never share one. */
let mark = 0
const emailMark = () => `x${(++mark).toString(36)}`

/**
 * The body with every address made unique at the moment it is sent: a sequence replayed while shrinking sends the
 * same drawn values again, and a server may refuse an address a live record (of an earlier sequence) holds.
 */
export function freshAddresses(resource: ResourceName, body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body }
  let fields = emailFields.get(resource)
  if (!fields)
    emailFields.set(
      resource,
      (fields = bodyFields(resource, 'create')
        .filter((f) => f.kind === 'email')
        .map((f) => f.name)),
    )
  for (const field of fields) {
    const value = out[field]
    if (typeof value === 'string' && value.includes('@')) out[field] = value.replace('@', `.${emailMark()}${Date.now().toString(36)}@`)
  }
  return out
}

/** A create body: required fields always, optional ones present or absent. */
export function createBody(resource: ResourceName): fc.Arbitrary<Record<string, unknown>> {
  return widened(resource, 'create', validBody(resource, 'create', { emailMark }) as fc.Arbitrary<Record<string, unknown>>)
}

/** A partial update body: at least one field. */
export function updateBody(resource: ResourceName): fc.Arbitrary<Record<string, unknown>> {
  return widened(resource, 'update', validBody(resource, 'update', { emailMark }) as fc.Arbitrary<Record<string, unknown>>).filter(
    (b) => Object.keys(b).length > 0,
  )
}

/**
 * A body `sweep --run` can still find after an interrupted run whose clean-up was cut short (rule 8): the run tag
 * where the resource has tags (kept when an update writes the tags), the run label at the start of its label field
 * otherwise (a task's title, also when an update writes it). Target and model are sent the same body.
 */
export function sweepable(ctx: CheckContext, resource: ResourceName, body: Record<string, unknown>, op: 'create' | 'update'): Record<string, unknown> {
  const label = RUN_LABEL_FIELDS[resource]
  const out = label && typeof body[label] === 'string' ? { ...body, [label]: `${runLabel(ctx, resource)} ${body[label] as string}` } : body
  return op === 'create' || Array.isArray(out.tags) ? tagged(ctx, resource, out) : out
}
