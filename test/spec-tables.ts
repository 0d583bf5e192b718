// The §4.2 and §4.3 tables read from spec/crm-api-spec.md itself, for the tests that hold the code against the
// spec: a hand copy in a test drifts along with the code it checks; a table read from the text fails when either does.
import { readFileSync } from 'node:fs'
import type { OpName } from '../src/spec/resources.ts'
import { specPath } from '../src/spec/spec-text.ts'

export const SPEC_TEXT = readFileSync(specPath(), 'utf8')

/** The spec's text from the heading `from` up to the heading `to`. */
export function specSection(from: string, to: string): string {
  const start = SPEC_TEXT.indexOf(`\n${from}\n`)
  const end = SPEC_TEXT.indexOf(`\n${to}\n`, start)
  if (start < 0 || end < 0) throw new Error(`spec/crm-api-spec.md has no section from "${from}" to "${to}"`)
  return SPEC_TEXT.slice(start, end)
}

/** The body rows of the first Markdown table in `section`: cells trimmed, `\|` read as `|`. */
function tableRows(section: string): string[][] {
  const lines = section.split('\n').filter((l) => l.startsWith('|'))
  return lines.slice(2).map((line) =>
    line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.replace(/\\\|/g, '|').trim()),
  )
}

export interface SpecOperation {
  op: OpName
  /** The title, verbatim. */
  title: string
  /** The scope it needs, `<area>:read|write` (the short `read` / `write` of an item row taken with its collection's area); '' where not stated. */
  scope: string
}

export interface SpecEndpoint {
  /** `/accounts`, `/accounts/{id}`, `/me`. */
  path: string
  operations: SpecOperation[]
}

/** The operation a §4.2 title names: its first word, but "move to recycle bin" is the accounts' and contacts' delete. */
function opOfTitle(title: string): OpName {
  const op = title === 'move to recycle bin' ? 'delete' : title.split(' ')[0]
  if (!['list', 'get', 'create', 'update', 'replace', 'delete'].includes(op)) throw new Error(`§4.2 title "${title}" names no operation`)
  return op as OpName
}

/** §4.2, one entry a row, in the table's order. */
export function endpointTable(): SpecEndpoint[] {
  let area = ''
  return tableRows(specSection('### 4.2 Endpoint table', '### 4.3 List filters (in addition to the common parameters)')).map(([path, titles, scopes]) => {
    const scopeList = scopes.split('; ')
    const full = scopeList.find((s) => s.includes(':'))
    if (full) area = full.split(':')[0]
    const titleList = titles.replace(/^GET: /, '').split('; ')
    return {
      path,
      operations: titleList.map((title, i) => {
        const scope = scopeList[i] ?? ''
        return {
          op: path === '/me' ? 'get' : opOfTitle(title),
          title,
          scope: scope === 'scope not stated' ? '' : scope.includes(':') ? scope : `${area}:${scope}`,
        }
      }),
    }
  })
}

export interface SpecFilterRow {
  /** `accounts`, `contacts`, … */
  collection: string
  /** The query parameters of the row: one, or several sharing a type (`accountId, contactId`). */
  params: string[]
  /** `uuid`, `string`, or the listed values of an enumerated filter. */
  type: 'uuid' | 'string' | string[]
  /** The Meaning column, verbatim ('' where empty). */
  meaning: string
}

/** §4.3, one entry a row, in the table's order. */
export function filterTable(): SpecFilterRow[] {
  return tableRows(specSection('### 4.3 List filters (in addition to the common parameters)', '### 4.4 Write bodies')).map(
    ([collection, params, type, meaning]) => ({
      collection,
      params: params.split(', '),
      type: type === 'uuid' || type === 'string' ? type : type.split('|').map((v) => v.replace(/`/g, '')),
      meaning,
    }),
  )
}
