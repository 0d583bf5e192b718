// The spec's tables in resources.ts held against spec/crm-api-spec.md itself (read by test/spec-tables.ts), plus
// the rules the tables must keep among themselves.
import { describe, expect, it } from 'vitest'
import { endpointTable, filterTable, specSection } from '../../test/spec-tables.ts'
import { ALL_SCOPES, ENUMS, RESOURCES, RESOURCE_LIST, SCOPE_AREAS, enumType, parseFieldType, resourceByPath, scopeFor, writeBodies } from './resources.ts'
import type { FieldType, FilterSpec, OpName, ResourceName, ScopeArea } from './resources.ts'

describe('parseFieldType', () => {
  it('parses plain, nullable, email and enum types', () => {
    expect(parseFieldType('uuid')).toEqual({ base: 'uuid', nullable: false })
    expect(parseFieldType('date-time|null')).toEqual({ base: 'date-time', nullable: true })
    expect(parseFieldType('string[]')).toEqual({ base: 'string[]', nullable: false })
    expect(parseFieldType('email')).toEqual({ base: 'email', nullable: true })
    expect(parseFieldType('enum:en,ms,zh-CN|null')).toEqual({ base: 'enum', nullable: true, values: ['en', 'ms', 'zh-CN'] })
    expect(parseFieldType('enum:open,won,lost')).toEqual({ base: 'enum', nullable: false, values: ['open', 'won', 'lost'] })
  })
  it('rejects unknown types', () => {
    expect(() => parseFieldType('number' as FieldType)).toThrow()
    expect(() => parseFieldType('enum:a,,b')).toThrow()
  })
  it('accepts every type used in the tables', () => {
    for (const r of RESOURCE_LIST) {
      for (const t of Object.values(r.record)) expect(() => parseFieldType(t)).not.toThrow()
      for (const t of Object.values(r.writeOnly)) expect(() => parseFieldType(t)).not.toThrow()
    }
    for (const { body } of writeBodies()) for (const t of Object.values(body.fields)) expect(() => parseFieldType(t)).not.toThrow()
  })
  it('uses email only in write bodies', () => {
    for (const r of RESOURCE_LIST) expect(Object.values(r.record)).not.toContain('email')
  })
})

describe('§4.2 endpoint table', () => {
  // Every row but /me, which is no resource.
  const endpoints = endpointTable().filter((e) => e.path !== '/me')
  const collections = endpoints.filter((e) => !e.path.endsWith('/{id}'))
  it('lists the 16 resources in table order', () => {
    expect(RESOURCE_LIST.map((r) => r.path)).toEqual(collections.map((e) => e.path))
    expect(endpoints.map((e) => e.path)).toEqual(collections.flatMap((e) => [e.path, `${e.path}/{id}`]))
  })
  it.each(collections.map((e) => e.path))('%s: operations, their titles verbatim, and scopes', (path) => {
    const r = resourceByPath(path)!
    expect(r.path).toBe(path)
    expect(resourceByPath(`${path}/{id}`)).toBe(r)
    expect(resourceByPath(`${path}/6f1c1d2e-1111-4a4a-9b9b-123456789abc?x=1`)).toBe(r)
    const operations = endpoints.filter((e) => e.path === path || e.path === `${path}/{id}`).flatMap((e) => e.operations)
    const all: OpName[] = ['list', 'get', 'create', 'update', 'replace', 'delete']
    for (const op of all) {
      const listed = operations.find((o) => o.op === op)
      expect(r.ops[op], `${r.name}.${op}`).toBe(listed !== undefined)
      expect(r.titles[op], `${r.name} title ${op}`).toBe(listed?.title)
      if (listed) expect(scopeFor(r.name, op), `${r.name}.${op} scope`).toBe(listed.scope)
    }
    expect(r.scopeArea).toBe(operations[0].scope.split(':')[0])
    for (const op of ['create', 'update', 'replace'] as const) expect(r[op] !== undefined, `${r.name} ${op} body`).toBe(r.ops[op])
    expect(r.deleteMeans).toBe(r.ops.delete ? (r.titles.delete === 'move to recycle bin' ? 'recycle-bin' : 'delete') : undefined)
  })
  it('recycle bin for accounts and contacts only (§1.6)', () => {
    expect(RESOURCE_LIST.filter((r) => r.deleteMeans === 'recycle-bin').map((r) => r.name)).toEqual(['account', 'contact'])
  })
  it('resolves no resource for /me and unknown paths', () => {
    expect(resourceByPath('/me')).toBeUndefined()
    expect(resourceByPath('/nope')).toBeUndefined()
    expect(resourceByPath('/accounts/x/y')).toBeUndefined()
  })
})

describe('§5.4 scope areas', () => {
  it('has the areas in use, users read only', () => {
    const areas = specSection('## 5. Authentication', '## 6. Events')
      .match(/Areas in use: (.*); `users` has read only\./)![1]
      .split(', ')
    expect(Object.keys(SCOPE_AREAS)).toEqual([...areas, 'users'])
    for (const area of areas) expect(SCOPE_AREAS[area as ScopeArea], area).toEqual({ read: true, write: true })
    expect(SCOPE_AREAS.users).toEqual({ read: true, write: false })
    expect(ALL_SCOPES).toContain('users:read')
    expect(ALL_SCOPES).not.toContain('users:write')
    expect(ALL_SCOPES).toHaveLength(2 * areas.length + 1)
  })
  it('every write operation needs an area with a write scope', () => {
    for (const r of RESOURCE_LIST) {
      if (r.ops.create || r.ops.update || r.ops.replace || r.ops.delete) expect(SCOPE_AREAS[r.scopeArea].write).toBe(true)
    }
  })
})

// §4.3 gives the type and the meaning; which record field a filter matches, and how, is read from the meaning.
const MATCH_OF_MEANING: [RegExp, FilterSpec['match']][] = [
  [/lower case/, 'lowercase'],
  [/upper case/, 'uppercase'],
  [/E\.164/, 'e164'],
]
/** "primary account is this": the contacts' accountId filter matches the record's primaryAccountId (§2). */
const FIELD_OF_FILTER: Record<string, string> = { 'contact.accountId': 'primaryAccountId' }

describe('§4.3 list filters', () => {
  const rows = filterTable()
  it('has exactly the filters of the table, in its order', () => {
    const actual = RESOURCE_LIST.flatMap((r) => r.filters.map((f) => `${r.path}.${f.param}`))
    expect(actual).toEqual(rows.flatMap((row) => row.params.map((p) => `/${row.collection}.${p}`)))
  })
  it.each(rows.flatMap((row) => row.params.map((param) => ({ ...row, param }))))('$collection $param', ({ collection, param, params, type, meaning }) => {
    const resource = resourceByPath(`/${collection}`)!
    const f = resource.filters.find((x) => x.param === param)!
    expect(f.kind).toBe(Array.isArray(type) ? 'enum' : type)
    expect(f.values).toEqual(Array.isArray(type) ? type : undefined)
    // A row naming several filters words one meaning for all of them; the table keeps one each.
    if (params.length === 1) expect(f.meaning).toBe(meaning)
    expect(f.match).toBe(MATCH_OF_MEANING.find(([pattern]) => pattern.test(meaning))?.[1] ?? 'exact')
    expect(f.field).toBe(FIELD_OF_FILTER[`${resource.name}.${param}`] ?? param)
    expect(resource.record[f.field], 'the matched field is a record field').toBeDefined()
  })
})

describe('§2 records', () => {
  it('every record has id uuid', () => {
    for (const r of RESOURCE_LIST) expect(r.record.id).toBe('uuid')
  })
  it('hasTags matches the record', () => {
    for (const r of RESOURCE_LIST) expect(r.hasTags).toBe(r.record.tags === 'string[]')
    expect(RESOURCE_LIST.filter((r) => r.hasTags).map((r) => r.name)).toEqual(['account', 'contact', 'case', 'article'])
  })
  it('money fields are integers (§1.4)', () => {
    for (const r of RESOURCE_LIST) {
      for (const [k, t] of Object.entries(r.record)) if (k.endsWith('Sen')) expect(t.startsWith('integer'), `${r.name}.${k}`).toBe(true)
    }
  })
  it('match the §2 listings of the spec text, field by field', () => {
    const section = specSection('## 2. Resources and their fields', '### Unspecified shapes')
    const blocks = section.split(/^### /m).slice(1)
    expect(blocks).toHaveLength(16)
    const normal = (raw: string | undefined): string => {
      // `a`|`b` → enum:a,b; "string (sanitised HTML)" → string; a missing type is a date-time (createdAt; updatedAt).
      const t = (raw ?? 'date-time').replace(/\s*\(.*$/, '').trim()
      if (t.startsWith('`')) return `enum:${t.replace(/`/g, '').split('|').join(',')}`
      return t
    }
    for (const block of blocks) {
      const name = block.split(/[\s(]/, 1)[0] as ResourceName
      const lines = block.split('\n')
      const fields = lines[1]
        .replace(/\.$/, '')
        .split('; ')
        .map((f) => f.match(/^(\w+)(?: (.*))?$/)!)
      const expected = Object.fromEntries(fields.map((m) => [m[1], normal(m[2])]))
      expect(RESOURCES[name].record, name).toEqual(expected)
      expect(Object.keys(RESOURCES[name].record), name).toEqual(Object.keys(expected))
      const writable = lines.find((l) => l.startsWith('Writable but not in the record: '))
      const writeOnly = writable
        ? Object.fromEntries(
            writable
              .slice('Writable but not in the record: '.length)
              .replace(/\.$/, '')
              .split(', ')
              .map((f) => f.match(/^(\w+) (.*)$/)!)
              .map((m) => [m[1], normal(m[2])]),
          )
        : {}
      expect(RESOURCES[name].writeOnly, `${name} write-only`).toEqual(writeOnly)
    }
  })
  it('spot checks', () => {
    expect(RESOURCES.contact.record.createdAt).toBe('date-time')
    expect(RESOURCES.contact.record.locale).toBe('string|null')
    expect(RESOURCES.task.record.priority).toBe('string')
    expect(RESOURCES.task.record.status).toBe('enum:open,done,cancelled')
    expect(RESOURCES.comment.record.kind).toBe('enum:public,internal')
    expect(RESOURCES.message.record.author).toBe('enum:customer,agent,bot,system')
    expect(RESOURCES.opportunity.record.expectedCloseDate).toBe('date|null')
    expect(RESOURCES.invoice.record.issueDate).toBe('date')
    expect(RESOURCES.payment.record.paidOn).toBe('date')
    expect(RESOURCES.lead.record.score).toBe('integer|null')
    expect(RESOURCES.article.record.translations).toBe('object[]')
    expect(RESOURCES.activity.recordMaxLength).toEqual({ body: 500 })
  })
  it('write-only fields are not in the record', () => {
    for (const r of RESOURCE_LIST) for (const k of Object.keys(r.writeOnly)) expect(r.record[k], `${r.name}.${k}`).toBeUndefined()
    expect(RESOURCES.account.writeOnly).toEqual({ backupOwnerId: 'uuid|null' })
    expect(RESOURCES.contact.writeOnly).toEqual({ accountId: 'uuid|null', accountRole: 'string|null' })
    expect(RESOURCES.quotation.writeOnly).toEqual({ priceListId: 'uuid|null', tier: 'string|null', notes: 'string|null', items: 'object[]' })
    expect(RESOURCES.invoice.writeOnly).toEqual({ terms: 'string|null', notes: 'string|null', items: 'object[]' })
    expect(RESOURCES.task.writeOnly).toEqual({ recurrence: 'object|null' })
  })
})

describe('§4.4 write bodies', () => {
  it('match the §4.4 paragraphs of the spec text: every field, type and required mark', () => {
    const section = specSection('### 4.4 Write bodies', '## 5. Authentication')
    const paragraphs = section.split('\n').filter((l) => l.startsWith('**'))
    expect(paragraphs).toHaveLength(17)
    const normal = (raw: string | undefined): string | undefined => {
      if (raw === undefined) return undefined // opportunity update `name;` lists no type
      const t = raw.replace(/\s*\((?!values).*\)$/, '').trim()
      if (/^string\|null\|empty( string)?$/.test(t)) return 'email'
      if (t === '(values in section 2)') return 'enum:*'
      if (t.startsWith('`'))
        return `enum:${t
          .replace(/`/g, '')
          .split('|')
          .filter((v) => v !== 'null')
          .join(',')}${t.endsWith('|null') ? '|null' : ''}`
      return t
    }
    const parse = (text: string): { fields: Record<string, string | undefined>; required: string[] } => {
      const fields: Record<string, string | undefined> = {}
      const required: string[] = []
      for (const group of text.replace(/\.$/, '').split('; ')) {
        const m = group.match(/^([\w*]+(?:, [\w*]+)*)(?: (.*))?$/)!
        for (const raw of m[1].split(', ')) {
          const name = raw.replace('*', '')
          if (raw.endsWith('*')) required.push(name)
          fields[name] = normal(m[2])
        }
      }
      return { fields, required }
    }
    const compare = (resource: ResourceName, op: 'create' | 'update' | 'replace', parsed: ReturnType<typeof parse>, allRequired = false): void => {
      const body = RESOURCES[resource][op]!
      expect(Object.keys(body.fields), `${resource}.${op}`).toEqual(Object.keys(parsed.fields))
      for (const [k, t] of Object.entries(parsed.fields)) {
        if (t === undefined) continue
        if (t === 'enum:*') expect(parseFieldType(body.fields[k]).base, `${resource}.${op}.${k}`).toBe('enum')
        else expect(body.fields[k], `${resource}.${op}.${k}`).toBe(t)
      }
      const required = allRequired ? Object.keys(parsed.fields) : op === 'update' ? [] : parsed.required
      expect(body.required, `${resource}.${op} required`).toEqual(required)
    }
    for (const line of paragraphs) {
      const heads = [...line.matchAll(/\*\*(POST|Update|update|replace) (\/\w+)/g)].map((m) => [m[1].toLowerCase(), m[2]] as const)
      let text = line.replace(/^.*?\*\*(?: \([^)]*\))?: /, '')
      text = text.replace(/ \(Pipeline, stage and currency are not updatable here\.\)$/, '')
      let createOnly = ''
      if (text.includes(' Create only: ')) {
        ;[text, createOnly] = text.split(' Create only: ')
        createOnly = createOnly.replace(/\. All optional\.$/, '').replace(/, /g, '; ')
      }
      const parsed = parse(text)
      for (const [method, path] of heads) {
        const resource = resourceByPath(path)!.name
        const op = method === 'post' ? 'create' : method === 'update' ? 'update' : 'replace'
        if (op === 'create' && createOnly !== '') {
          const extra = parse(createOnly)
          compare(resource, op, { fields: { ...parsed.fields, ...extra.fields }, required: [...parsed.required, ...extra.required] })
        } else compare(resource, op, parsed, op === 'replace')
      }
    }
    expect(writeBodies()).toHaveLength(paragraphs.flatMap((l) => [...l.matchAll(/\*\*(POST|Update|update|replace) /g)]).length)
  })
  it('required fields are fields of the body', () => {
    for (const { body } of writeBodies()) for (const k of body.required) expect(body.fields[k]).toBeDefined()
  })
  it('email fields accept string, null or empty', () => {
    for (const [r, op] of [
      ['account', 'create'],
      ['account', 'update'],
      ['contact', 'create'],
      ['contact', 'update'],
      ['lead', 'create'],
      ['lead', 'update'],
    ] as const) {
      expect(RESOURCES[r][op]!.fields.email).toBe('email')
    }
  })
  it('spec quirks', () => {
    expect(Object.keys(RESOURCES.comment.create!.fields)).toEqual(['caseId', 'kind', 'html'])
    expect(Object.keys(RESOURCES.message.create!.fields)).toEqual(['conversationId', 'text'])
    expect(RESOURCES.contact.create!.fields.accountId).toBe('uuid|null')
    expect(RESOURCES.contact.update!.fields.accountId).toBeUndefined()
    expect(RESOURCES.contact.update!.fields.accountRole).toBeUndefined()
    expect(RESOURCES.contact.create!.fields.locale).toBe('enum:en,ms,zh-CN|null')
    const caseUpdate = RESOURCES.case.update!.fields
    for (const k of ['status', 'assigneeId', 'teamId']) expect(caseUpdate[k], k).toBeUndefined()
    expect(caseUpdate.resolution).toBe('string|null')
    expect(caseUpdate.priority).toBe('string')
    expect(RESOURCES.case.create!.fields.priority).toBe('string|null')
    const oppUpdate = RESOURCES.opportunity.update!.fields
    for (const k of ['pipelineId', 'stageKey', 'currency']) expect(oppUpdate[k], k).toBeUndefined()
    expect(RESOURCES.quotation.create!.fields.validUntil).toBe('string|null')
    expect(RESOURCES.invoice.create!.fields.issueDate).toBe('string|null')
    expect(RESOURCES.payment.create!.fields.paidOn).toBe('string')
    expect(RESOURCES.task.create!.fields.priority).toBe(enumType(ENUMS.taskPriority))
    expect(RESOURCES.lead.create!.fields.source).toBe(enumType(ENUMS.leadSource))
    expect(RESOURCES.lead.create!.fields.language).toBe('string|null')
    expect(RESOURCES.lead.update!.fields.status).toBe('enum:new,contacted,qualifying')
    expect(RESOURCES.payment.create!.fields.method).toBe(enumType(ENUMS.paymentMethod))
    expect(RESOURCES.activity.create!.fields.kind).toBe('enum:call,email,chat,note')
    expect(RESOURCES.quotation.create!.fields.language).toBe('enum:en,ms,zh-CN')
  })
  it('create and replace of the same resource share their fields', () => {
    for (const r of ['quotation', 'invoice', 'product'] as const) expect(RESOURCES[r].replace!.fields).toEqual(RESOURCES[r].create!.fields)
  })
})
