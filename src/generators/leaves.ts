// Realistic leaf values. fast-check draws (and shrinks) a seed; faker, seeded with it, turns the seed into a
// name, a company or a sentence, so a run is reproduced exactly by its fast-check seed. Reserved test data
// only: addresses @example.com, numbers 555-01xx in E.164 (the safe profile's promise).
import fc from 'fast-check'
import { faker } from '@faker-js/faker/locale/en'

type Faker = typeof faker

/** A faker value drawn from a fast-check seed; the seed shrinks towards 0 and the value with it. */
export function fake<T>(make: (f: Faker) => T): fc.Arbitrary<T> {
  // faker is seeded and read in one synchronous step, so concurrent properties never share its state.
  return fc.integer({ min: 0, max: 0x7fffffff }).map((n) => {
    faker.seed(n)
    return make(faker)
  })
}

/**
 * Fields whose values are keys the workspace defines (statuses, priorities, stages, currencies, languages,
 * tiers…): the spec types them `string` but does not list the keys (§3 "not shown"), so a made-up key may
 * rightly be refused. Generators leave them out (or send null where the body allows it).
 */
const KEYED = /^(status|priority|stageKey|currency|language|locale|source|tier|industry|entityType|accountRole|unit)$/

export function isKeyedField(name: string): boolean {
  return KEYED.test(name)
}

/** What a keyed field gets when the body requires it: the spec's own example currency (§1), else a word. */
export function keyedFallback(name: string): fc.Arbitrary<string> {
  return name === 'currency' ? fc.constant('MYR') : fake((f) => f.lorem.word())
}

const ascii = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '.')
    .replace(/^\.+|\.+$/g, '')
    .toLowerCase()

/**
 * A person's address. `mark`, when given, adds a suffix of its own to each address drawn (shrunk ones too): a
 * server may refuse a second record with an address it already holds (contacts, leads).
 */
export function email(mark?: () => string): fc.Arbitrary<string> {
  return fake((f) => `${ascii(f.person.firstName())}.${ascii(f.person.lastName())}.${f.number.int({ min: 1, max: 999 })}`).map(
    (local) => `${mark ? `${local}.${mark()}` : local}@example.com`,
  )
}

/** +1 202 555-01xx: fictional numbers reserved for examples, in E.164. */
export const phone = fc.integer({ min: 0, max: 99 }).map((n) => `+1202555${String(100 + n).padStart(4, '0')}`)

const TEXT: [RegExp, (f: Faker) => string][] = [
  [/^fullName$/, (f) => f.person.fullName()],
  [/^firstName$/, (f) => f.person.firstName()],
  [/^lastName$/, (f) => f.person.lastName()],
  [/^(name|companyName|legalName)$/, (f) => f.company.name()],
  [/^(title|subject)$/, (f) => f.company.catchPhrase()],
  [/^department$/, (f) => f.commerce.department()],
  [/^website$/, (f) => `https://www.example.com/${f.lorem.slug(2)}`],
  [/^(registrationNo|sku|reference)$/, (f) => f.string.alphanumeric({ length: 10, casing: 'upper' })],
  [/^(description|notes?|terms|body|nextStep|resolution|sourceDetail|html|text)$/, (f) => f.lorem.sentence()],
]

/** A realistic string for a field, chosen by its name; phones are reserved numbers. */
export function text(name: string): fc.Arbitrary<string> {
  if (/^(phone|mobile|office|home)$/.test(name)) return phone
  const make = TEXT.find(([pattern]) => pattern.test(name))?.[1] ?? ((f: Faker) => f.lorem.words(2))
  return fake(make)
}

/** Items of a string array: tags are lower-case words (a server may normalise tag case), others names. */
export function arrayItem(name: string): fc.Arbitrary<string> {
  return name === 'tags' ? fake((f) => f.lorem.word().toLowerCase()) : fake((f) => f.company.name())
}

const DAY_MS = 86_400_000
// Future dates and times: due dates, close dates and validity are rarely set in the past.
const FROM = Date.UTC(2027, 0, 1)
const TO = Date.UTC(2031, 11, 31)
/** Reminders fall before it, every other date-time after: see `dateTime`. */
const REMINDERS_END = Date.UTC(2028, 0, 1)

/** Whole seconds, UTC, `Z`: a server that keeps no milliseconds still returns the same instant. */
const instant = (from: number, to: number) =>
  fc.integer({ min: from / 1000, max: to / 1000 }).map((s) => new Date(s * 1000).toISOString().replace('.000Z', 'Z'))

const reminderTime = instant(FROM, REMINDERS_END - 1000)
const laterTime = instant(REMINDERS_END, TO)

/**
 * A date-time for a field. A server may require a reminder at or before what it reminds of (a task's remindAt
 * and dueAt), in one body or across writes: every reminder drawn is earlier than every other date-time.
 */
export function dateTime(name: string): fc.Arbitrary<string> {
  return /^remind/.test(name) ? reminderTime : laterTime
}

export const date = fc.integer({ min: FROM / DAY_MS, max: TO / DAY_MS }).map((d) => new Date(d * DAY_MS).toISOString().slice(0, 10))

/** Money in sen stays far inside a 32-bit column; day counts within a year; other counts small. */
export function integer(name: string): fc.Arbitrary<number> {
  if (/Sen$/.test(name)) return fc.integer({ min: 0, max: 100_000_000 })
  if (/Days$/.test(name)) return fc.integer({ min: 0, max: 365 })
  return fc.integer({ min: 0, max: 10_000 })
}
