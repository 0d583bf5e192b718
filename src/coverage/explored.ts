// The explored share (issue 39 item 4): the cells (operation × axis × value form) of the API a random explorer can
// reach, generated from the spec's tables (src/spec/resources.ts: §4.2 operations, §4.3 filters, §4.1 list
// parameters, §4.4 bodies), and the cells one request sent falls in, read from the request itself (method, path,
// query, body, Idempotency-Key). A run's explored cells, and their union over the nights of a `--history` file,
// over the universe, is the share report.json, report.html and `crm-conformance coverage` show beside the matrix.
import { LIST_PARAMETERS, RESOURCE_LIST, parseFieldType, resourceByPath, type FieldType, type OpName, type ResourceSpec } from '../spec/resources.ts'

const METHOD: Record<OpName, string> = { list: 'GET', get: 'GET', create: 'POST', update: 'PATCH', replace: 'PUT', delete: 'DELETE' }
const ITEM_OPS: ReadonlySet<OpName> = new Set(['get', 'update', 'replace', 'delete'])

/** `account.create POST /accounts`: the operation part of a cell (operation name, method, route template). */
export function operationOf(resource: ResourceSpec, op: OpName): string {
  return `${resource.name}.${op} ${METHOD[op]} ${resource.path}${ITEM_OPS.has(op) ? '/{id}' : ''}`
}

const cell = (operation: string, axis: string, form: string) => `${operation} ${axis}=${form}`

/** The value forms a field of this type may legally take in a write body (absent only where it is optional). */
function fieldForms(type: FieldType, required: boolean): string[] {
  const parsed = parseFieldType(type)
  const forms = required ? [] : ['absent']
  if (parsed.nullable) forms.push('null')
  switch (parsed.base) {
    case 'string':
      return [...forms, 'ascii', 'non-ascii']
    case 'email':
      return [...forms, 'empty', 'address']
    case 'enum':
      return [...forms, ...parsed.values!]
    case 'date-time':
      return [...forms, 'utc-z', 'offset']
    case 'integer':
      return [...forms, 'zero', 'positive']
    case 'string[]':
    case 'object[]':
      return [...forms, 'empty', 'items']
    case 'object':
      return [...forms, 'empty', 'keys']
    default:
      // uuid (a record's id), date
      return [...forms, parsed.base]
  }
}

/** The value forms of a list's query parameters (§4.1) and of its filters (§4.3). */
function listAxes(resource: ResourceSpec): [string, string[]][] {
  const filters = resource.filters.map((f): [string, string[]] => [
    `query.${f.param}`,
    ['absent', ...(f.kind === 'enum' ? f.values! : f.kind === 'uuid' ? ['uuid'] : ['ascii', 'non-ascii'])],
  ])
  return [
    ...filters,
    ['query.sort', ['absent', ...LIST_PARAMETERS.sort.values]],
    ['query.order', ['absent', ...LIST_PARAMETERS.order.values]],
    ['query.createdSince', ['absent', 'utc-z', 'offset']],
    ['query.updatedSince', ['absent', 'utc-z', 'offset']],
    ['query.limit', ['absent', 'min-1', 'between', 'max-100']],
    ['query.cursor', ['absent', 'string']],
  ]
}

/** Each operation of the spec with its axes and every value form each axis may take. */
function operationAxes(): { operation: string; axes: [string, string[]][] }[] {
  const out: { operation: string; axes: [string, string[]][] }[] = []
  for (const resource of RESOURCE_LIST) {
    for (const op of Object.keys(METHOD) as OpName[]) {
      if (!resource.ops[op]) continue
      const body = op === 'create' || op === 'update' || op === 'replace' ? resource[op] : undefined
      const axes: [string, string[]][] =
        op === 'list'
          ? listAxes(resource)
          : body
            ? Object.entries(body.fields).map(([field, type]) => [`body.${field}`, fieldForms(type, body.required.includes(field))])
            : [['path.id', ['uuid']]]
      if (op === 'create') axes.push(['header.Idempotency-Key', ['absent', 'present']])
      out.push({ operation: operationOf(resource, op), axes })
    }
  }
  return out
}

let universe: ReadonlySet<string> | undefined

/** Every cell the explorer could explore: the universe the explored share is measured against. */
export function exploreUniverse(): ReadonlySet<string> {
  return (universe ??= new Set(operationAxes().flatMap(({ operation, axes }) => axes.flatMap(([axis, forms]) => forms.map((f) => cell(operation, axis, f))))))
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The form of a value sent (the same words as the universe's). */
export function valueForm(value: unknown, type?: FieldType): string {
  if (value === null) return 'null'
  const base = type === undefined ? undefined : parseFieldType(type).base
  if (Array.isArray(value)) return value.length === 0 ? 'empty' : 'items'
  if (typeof value === 'object') return Object.keys(value as object).length === 0 ? 'empty' : 'keys'
  if (typeof value === 'number') return value === 0 ? 'zero' : value > 0 ? 'positive' : 'negative'
  if (typeof value !== 'string') return typeof value
  if (base === 'enum' || base === 'date') return base === 'date' ? 'date' : value
  if (base === 'date-time') return /[zZ]$/.test(value) ? 'utc-z' : 'offset'
  if (base === 'email') return value === '' ? 'empty' : 'address'
  if (base === 'uuid') return 'uuid'
  if (value === '') return 'empty'
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(value) ? 'ascii' : 'non-ascii'
}

function limitForm(value: string): string {
  const n = Number(value)
  return n === 1 ? 'min-1' : n === 100 ? 'max-100' : n > 1 && n < 100 ? 'between' : 'out-of-range'
}

function queryForm(resource: ResourceSpec, param: string, value: string): string {
  const filter = resource.filters.find((f) => f.param === param)
  if (filter) return filter.kind === 'enum' ? value : filter.kind === 'uuid' ? (UUID.test(value) ? 'uuid' : 'other') : valueForm(value)
  if (param === 'limit') return limitForm(value)
  if (param === 'createdSince' || param === 'updatedSince') return valueForm(value, 'date-time')
  if (param === 'cursor') return 'string'
  return value
}

/** What one request names: its operation on a collection of the spec, or undefined (`/me`, an unknown path). */
function operationOfRequest(method: string, pathname: string): { resource: ResourceSpec; op: OpName } | undefined {
  const segments = pathname.replace(/\/+$/, '').split('/')
  const last = segments.at(-1) ?? ''
  const collection = resourceByPath(`/${last}`)
  if (collection && collection.path === `/${last}`) {
    const op = method === 'GET' ? 'list' : method === 'POST' ? 'create' : undefined
    return op && collection.ops[op] ? { resource: collection, op } : undefined
  }
  const item = resourceByPath(`/${segments.at(-2) ?? ''}/${last}`)
  const op = (['get', 'update', 'replace', 'delete'] as const).find((o) => METHOD[o] === method)
  return item && op && item.ops[op] ? { resource: item, op } : undefined
}

/** A request as sent: method, full URL, headers (names in any case), body (parsed JSON). */
export interface SentRequest {
  method: string
  url: string
  headers?: Record<string, string>
  body?: unknown
}

/** The cells of the universe one request falls in (none for a request outside it). */
export function cellsOfRequest(request: SentRequest): string[] {
  let url: URL
  try {
    url = new URL(request.url)
  } catch {
    return []
  }
  const method = request.method.toUpperCase()
  const found = operationOfRequest(method, url.pathname)
  if (!found) return []
  const { resource, op } = found
  const operation = operationOf(resource, op)
  const cells: string[] = []
  if (op === 'list') {
    for (const [axis] of listAxes(resource)) {
      const param = axis.slice('query.'.length)
      const value = url.searchParams.get(param)
      cells.push(cell(operation, axis, value === null ? 'absent' : queryForm(resource, param, value)))
    }
  } else if (op === 'get' || op === 'delete') cells.push(cell(operation, 'path.id', 'uuid'))
  else {
    const fields = resource[op]?.fields ?? {}
    const body = typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {}
    for (const [field, type] of Object.entries(fields)) cells.push(cell(operation, `body.${field}`, field in body ? valueForm(body[field], type) : 'absent'))
  }
  if (op === 'create') {
    const keyed = Object.keys(request.headers ?? {}).some((h) => h.toLowerCase() === 'idempotency-key')
    cells.push(cell(operation, 'header.Idempotency-Key', keyed ? 'present' : 'absent'))
  }
  const all = exploreUniverse()
  return cells.filter((c) => all.has(c))
}

/** report.json's `explored` block: this run's explored cells over the universe, and the union over the history's nights. */
export interface ExploredBlock {
  /** Cells of the universe (operation × axis × value form of the spec's tables). */
  universe: number
  /** Operations in the universe, and those this run's requests reached. */
  operations: { total: number; reached: number }
  run: { cells: number; share: number }
  /** With `--history FILE`: the union of the cells explored by every run of the file, this one included. */
  nights?: { file: string; runs: number; cells: number; share: number; newTonight: number }
  /** The cells this run explored, sorted (what the history keeps). */
  cells: string[]
}

const share = (n: number, of: number) => (of === 0 ? 0 : n / of)

/** The explored block of a run from its cells, and the cells earlier runs of the history explored (one list per run). */
export function exploredBlock(cells: Iterable<string>, history?: { file: string; earlier: readonly (readonly string[])[] }): ExploredBlock {
  const all = exploreUniverse()
  const mine = [...new Set(cells)].filter((c) => all.has(c)).sort()
  const operations = new Set([...all].map((c) => c.split(' ').slice(0, 3).join(' ')))
  const reached = new Set(mine.map((c) => c.split(' ').slice(0, 3).join(' ')))
  const block: ExploredBlock = {
    universe: all.size,
    operations: { total: operations.size, reached: reached.size },
    run: { cells: mine.length, share: share(mine.length, all.size) },
    cells: mine,
  }
  if (history) {
    const before = new Set(history.earlier.flat().filter((c) => all.has(c)))
    const union = new Set([...before, ...mine])
    block.nights = {
      file: history.file,
      runs: history.earlier.length + 1,
      cells: union.size,
      share: share(union.size, all.size),
      newTonight: union.size - before.size,
    }
  }
  return block
}

/** One line for a terminal: the explored share of this run, and over the nights when there is a history. */
export function exploredLine(block: ExploredBlock): string {
  const pct = (s: number) => `${(s * 100).toFixed(1)}%`
  const run = `Explored (operation × axis × value form): ${block.run.cells} of ${block.universe} cells (${pct(block.run.share)}) this run, ${block.operations.reached} of ${block.operations.total} operations`
  if (!block.nights) return run
  const n = block.nights
  return `${run}; over ${n.runs} runs of ${n.file}: ${n.cells} cells (${pct(n.share)}), ${n.newTonight} new this run`
}
