import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ALL_SCOPES, ENUMS, RESOURCES, RESOURCE_LIST, SCOPE_AREAS, enumType, parseFieldType, resourceByPath, scopeFor, writeBodies } from './resources.ts'
import type { FieldType, OpName, ResourceName } from './resources.ts'

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

// §4.2, transcribed independently of resources.ts.
const ENDPOINTS: [string, ResourceName, OpName[], string][] = [
  ['/accounts', 'account', ['list', 'create', 'get', 'update', 'delete'], 'accounts'],
  ['/contacts', 'contact', ['list', 'create', 'get', 'update', 'delete'], 'contacts'],
  ['/cases', 'case', ['list', 'create', 'get', 'update', 'delete'], 'cases'],
  ['/comments', 'comment', ['list', 'create', 'get'], 'cases'],
  ['/leads', 'lead', ['list', 'create', 'get', 'update', 'delete'], 'leads'],
  ['/opportunities', 'opportunity', ['list', 'create', 'get', 'update', 'delete'], 'deals'],
  ['/quotations', 'quotation', ['list', 'create', 'get', 'replace', 'delete'], 'quotations'],
  ['/orders', 'order', ['list', 'create', 'get'], 'orders'],
  ['/invoices', 'invoice', ['list', 'create', 'get', 'replace'], 'invoices'],
  ['/payments', 'payment', ['list', 'create', 'get'], 'invoices'],
  ['/products', 'product', ['list', 'create', 'get', 'replace'], 'products'],
  ['/tasks', 'task', ['list', 'create', 'get', 'update', 'delete'], 'tasks'],
  ['/activities', 'activity', ['list', 'create', 'get'], 'activities'],
  ['/articles', 'article', ['list', 'get'], 'knowledge'],
  ['/messages', 'message', ['list', 'create', 'get'], 'messages'],
  ['/users', 'user', ['list', 'get'], 'users'],
]

describe('§4.2 endpoint table', () => {
  it('lists the 16 resources in table order', () => {
    expect(RESOURCE_LIST.map((r) => r.path)).toEqual(ENDPOINTS.map(([p]) => p))
    expect(Object.keys(RESOURCES).sort()).toEqual(ENDPOINTS.map(([, n]) => n).sort())
  })
  it.each(ENDPOINTS)('%s: resource, operations and scope area', (path, name, opNames, area) => {
    const r = RESOURCES[name]
    expect(r.name).toBe(name)
    expect(r.path).toBe(path)
    expect(r.scopeArea).toBe(area)
    const all: OpName[] = ['list', 'get', 'create', 'update', 'replace', 'delete']
    for (const op of all) expect(r.ops[op], `${name}.${op}`).toBe(opNames.includes(op))
    for (const op of all) expect(r.titles[op] !== undefined, `${name} title ${op}`).toBe(opNames.includes(op))
    for (const op of ['create', 'update', 'replace'] as const) expect(r[op] !== undefined, `${name} ${op} body`).toBe(r.ops[op])
    expect(r.deleteMeans !== undefined).toBe(r.ops.delete)
    expect(resourceByPath(path)).toBe(r)
    expect(resourceByPath(`${path}/{id}`)).toBe(r)
    expect(resourceByPath(`${path}/6f1c1d2e-1111-4a4a-9b9b-123456789abc?x=1`)).toBe(r)
  })
  it('recycle bin for accounts and contacts only (§1.6)', () => {
    expect(RESOURCE_LIST.filter((r) => r.deleteMeans === 'recycle-bin').map((r) => r.name)).toEqual(['account', 'contact'])
  })
  it('resolves no resource for /me and unknown paths', () => {
    expect(resourceByPath('/me')).toBeUndefined()
    expect(resourceByPath('/nope')).toBeUndefined()
    expect(resourceByPath('/accounts/x/y')).toBeUndefined()
  })
  it('maps operations to read and write scopes', () => {
    expect(scopeFor('opportunity', 'list')).toBe('deals:read')
    expect(scopeFor('payment', 'create')).toBe('invoices:write')
    expect(scopeFor('comment', 'get')).toBe('cases:read')
    expect(scopeFor('article', 'get')).toBe('knowledge:read')
    expect(scopeFor('quotation', 'delete')).toBe('quotations:write')
  })
})

describe('§5.4 scope areas', () => {
  it('has the areas in use, users read only', () => {
    expect(Object.keys(SCOPE_AREAS).sort()).toEqual(
      [
        'accounts',
        'contacts',
        'cases',
        'leads',
        'deals',
        'quotations',
        'orders',
        'invoices',
        'products',
        'tasks',
        'activities',
        'knowledge',
        'messages',
        'users',
      ].sort(),
    )
    expect(SCOPE_AREAS.users).toEqual({ read: true, write: false })
    expect(ALL_SCOPES).toContain('users:read')
    expect(ALL_SCOPES).not.toContain('users:write')
    expect(ALL_SCOPES).toHaveLength(27)
  })
  it('every write operation needs an area with a write scope', () => {
    for (const r of RESOURCE_LIST) {
      if (r.ops.create || r.ops.update || r.ops.replace || r.ops.delete) expect(SCOPE_AREAS[r.scopeArea].write).toBe(true)
    }
  })
})

// §4.3, transcribed independently: collection, param, kind, record field, match, values.
const FILTERS: [ResourceName, string, 'uuid' | 'string' | 'enum', string, string, string[]?][] = [
  ['account', 'ownerId', 'uuid', 'ownerId', 'exact'],
  ['account', 'teamId', 'uuid', 'teamId', 'exact'],
  ['account', 'parentId', 'uuid', 'parentId', 'exact'],
  ['account', 'email', 'string', 'email', 'lowercase'],
  ['account', 'tier', 'string', 'tier', 'exact'],
  ['contact', 'accountId', 'uuid', 'primaryAccountId', 'exact'],
  ['contact', 'ownerId', 'uuid', 'ownerId', 'exact'],
  ['contact', 'email', 'string', 'email', 'lowercase'],
  ['contact', 'mobile', 'string', 'mobile', 'e164'],
  ['case', 'status', 'string', 'status', 'exact'],
  ['case', 'priority', 'string', 'priority', 'exact'],
  ['case', 'accountId', 'uuid', 'accountId', 'exact'],
  ['case', 'contactId', 'uuid', 'contactId', 'exact'],
  ['case', 'assigneeId', 'uuid', 'assigneeId', 'exact'],
  ['case', 'teamId', 'uuid', 'teamId', 'exact'],
  ['comment', 'caseId', 'uuid', 'caseId', 'exact'],
  ['comment', 'kind', 'enum', 'kind', 'exact', ['public', 'internal']],
  ['lead', 'status', 'string', 'status', 'exact'],
  ['lead', 'ownerId', 'uuid', 'ownerId', 'exact'],
  ['lead', 'email', 'string', 'email', 'lowercase'],
  ['opportunity', 'status', 'enum', 'status', 'exact', ['open', 'won', 'lost']],
  ['opportunity', 'pipelineId', 'uuid', 'pipelineId', 'exact'],
  ['opportunity', 'stageKey', 'string', 'stageKey', 'exact'],
  ['opportunity', 'accountId', 'uuid', 'accountId', 'exact'],
  ['opportunity', 'ownerId', 'uuid', 'ownerId', 'exact'],
  ['quotation', 'status', 'string', 'status', 'exact'],
  ['quotation', 'dealId', 'uuid', 'dealId', 'exact'],
  ['quotation', 'accountId', 'uuid', 'accountId', 'exact'],
  ['order', 'status', 'string', 'status', 'exact'],
  ['order', 'accountId', 'uuid', 'accountId', 'exact'],
  ['order', 'quoteId', 'uuid', 'quoteId', 'exact'],
  ['invoice', 'status', 'string', 'status', 'exact'],
  ['invoice', 'accountId', 'uuid', 'accountId', 'exact'],
  ['invoice', 'orderId', 'uuid', 'orderId', 'exact'],
  ['payment', 'invoiceId', 'uuid', 'invoiceId', 'exact'],
  ['product', 'status', 'enum', 'status', 'exact', ['active', 'archived']],
  ['product', 'sku', 'string', 'sku', 'uppercase'],
  ['task', 'status', 'enum', 'status', 'exact', ['open', 'done', 'cancelled']],
  ['task', 'assigneeId', 'uuid', 'assigneeId', 'exact'],
  ['task', 'accountId', 'uuid', 'accountId', 'exact'],
  ['task', 'contactId', 'uuid', 'contactId', 'exact'],
  ['activity', 'accountId', 'uuid', 'accountId', 'exact'],
  ['activity', 'contactId', 'uuid', 'contactId', 'exact'],
  ['activity', 'kind', 'string', 'kind', 'exact'],
  ['article', 'status', 'string', 'status', 'exact'],
  ['article', 'visibility', 'enum', 'visibility', 'exact', ['internal', 'public']],
  ['article', 'categoryId', 'uuid', 'categoryId', 'exact'],
  ['message', 'conversationId', 'uuid', 'conversationId', 'exact'],
  ['message', 'direction', 'enum', 'direction', 'exact', ['in', 'out', 'note', 'system']],
  ['user', 'status', 'string', 'status', 'exact'],
  ['user', 'email', 'string', 'email', 'exact'],
]

describe('§4.3 list filters', () => {
  it('has exactly the filters of the table', () => {
    const actual = RESOURCE_LIST.flatMap((r) => r.filters.map((f) => `${r.name}.${f.param}`))
    expect(actual).toEqual(FILTERS.map(([r, p]) => `${r}.${p}`))
  })
  it.each(FILTERS)('%s %s', (resource, param, kind, field, match, values) => {
    const f = RESOURCES[resource].filters.find((x) => x.param === param)
    expect(f).toBeDefined()
    expect(f!.kind).toBe(kind)
    expect(f!.field).toBe(field)
    expect(f!.match).toBe(match)
    expect(f!.values).toEqual(values)
    expect(RESOURCES[resource].record[field], 'the matched field is a record field').toBeDefined()
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
  it('field counts per record', () => {
    const counts = Object.fromEntries(RESOURCE_LIST.map((r) => [r.name, Object.keys(r.record).length]))
    expect(counts).toEqual({
      account: 19,
      contact: 20,
      case: 26,
      comment: 9,
      lead: 21,
      opportunity: 23,
      quotation: 22,
      order: 16,
      invoice: 22,
      payment: 11,
      product: 14,
      task: 17,
      activity: 11,
      article: 12,
      message: 8,
      user: 9,
    })
  })
  it('match the §2 listings of the spec text, field by field', () => {
    const spec = readFileSync(new URL('../../spec/crm-api-spec.md', import.meta.url), 'utf8')
    const section = spec.slice(spec.indexOf('## 2. Resources'), spec.indexOf('### Unspecified shapes'))
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
  const required: Record<string, string[]> = {
    'account.create': ['name'],
    'account.update': [],
    'contact.create': [],
    'contact.update': [],
    'case.create': ['subject'],
    'case.update': [],
    'comment.create': ['caseId', 'kind', 'html'],
    'lead.create': ['fullName'],
    'lead.update': [],
    'opportunity.create': ['name'],
    'opportunity.update': [],
    'quotation.create': ['title'],
    'quotation.replace': [
      'title',
      'dealId',
      'accountId',
      'contactId',
      'priceListId',
      'tier',
      'language',
      'validUntil',
      'paymentTermsDays',
      'terms',
      'notes',
      'items',
    ],
    'order.create': ['quoteId'],
    'invoice.create': ['title'],
    'invoice.replace': ['title', 'accountId', 'contactId', 'language', 'issueDate', 'paymentTermsDays', 'terms', 'notes', 'items'],
    'payment.create': ['amountSen', 'method', 'paidOn', 'invoiceId'],
    'product.create': ['sku', 'name', 'priceSen'],
    'product.replace': ['sku', 'name', 'description', 'unit', 'priceSen', 'costSen', 'currency', 'taxCategoryId', 'parentId', 'options', 'status'],
    'task.create': ['title'],
    'task.update': [],
    'activity.create': ['kind', 'title'],
    'message.create': ['conversationId', 'text'],
  }
  it('match the §4.4 paragraphs of the spec text: every field, type and required mark', () => {
    const spec = readFileSync(new URL('../../spec/crm-api-spec.md', import.meta.url), 'utf8')
    const section = spec.slice(spec.indexOf('### 4.4 Write bodies'), spec.indexOf('## 5. Authentication'))
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
  it('has exactly the bodies of §4.4 with their required fields', () => {
    const actual = Object.fromEntries(writeBodies().map(({ resource, op, body }) => [`${resource}.${op}`, body.required]))
    expect(actual).toEqual(required)
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
