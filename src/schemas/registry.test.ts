import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CrmConfError } from '../errors.ts'
import { RESOURCES, RESOURCE_LIST, parseFieldType, writeBodies } from '../spec/resources.ts'
import type { ResourceName, WriteOp } from '../spec/resources.ts'
import { RECORD_EXAMPLES, WRITE_EXAMPLES } from './examples.ts'
import { SCHEMAS_DIR } from './files.ts'
import { extraProperties, getSchema, hasSchema, listKey, loadRegistry, recordKey, schemaKeys, validate, writeKey } from './registry.ts'
import type { SchemaIssue, SchemaKey } from './registry.ts'

const with_ = (base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> => ({ ...base, ...patch })
const without = (base: Record<string, unknown>, field: string): Record<string, unknown> => {
  const copy = { ...base }
  delete copy[field]
  return copy
}
const at = (issues: SchemaIssue[]): string[] => issues.map((i) => `${i.path}:${i.keyword}`)

describe('registry', () => {
  it('holds every schema: 16 records, 16 lists, every §4.4 body, and the four shared ones', () => {
    const keys = schemaKeys()
    expect(keys.filter((k) => k.startsWith('records/'))).toHaveLength(16)
    expect(keys.filter((k) => k.startsWith('lists/'))).toHaveLength(16)
    expect(keys.filter((k) => k.startsWith('writes/'))).toHaveLength(writeBodies().length)
    for (const k of ['error', 'list-envelope', 'me', 'webhook-event']) expect(keys).toContain(k)
    expect(keys).toHaveLength(32 + writeBodies().length + 4)
    expect(hasSchema('writes/order.update')).toBe(false)
    expect(hasSchema('writes/order.create')).toBe(true)
  })
  it('key helpers', () => {
    expect(recordKey('account')).toBe('records/account')
    expect(listKey('case')).toBe('lists/case')
    expect(writeKey('quotation', 'replace')).toBe('writes/quotation.replace')
  })
  it('gives the raw schema, frozen, with its $id', () => {
    const s = getSchema('records/account')
    expect(s.$id).toBe('https://crm-conformance.dev/schemas/records/account.json')
    expect(Object.isFrozen(s)).toBe(true)
    expect(getSchema('lists/account').allOf).toEqual([{ $ref: 'https://crm-conformance.dev/schemas/list-envelope.json' }])
  })
  it('refuses an unknown key as a bug of ours', () => {
    expect(() => validate('records/nope' as SchemaKey, {})).toThrow(/No schema with key/)
  })
  it('is fast enough to run on every exchange', () => {
    const list = { data: Array.from({ length: 100 }, () => RECORD_EXAMPLES.case), nextCursor: 'abc' }
    const start = performance.now()
    for (let i = 0; i < 200; i++) expect(validate('lists/case', list)).toHaveLength(0)
    // Not a benchmark (npm run bench:traffic measures the speed): a schema compiled anew per call costs about a
    // hundred times this, so the bound only catches that; 2 s was crossed on a loaded 2-core CI machine.
    expect(performance.now() - start).toBeLessThan(20_000)
  })
})

describe('start-up', () => {
  const withBrokenFolder = (breakIt: (dir: string) => void): (() => void) => {
    return () => {
      const dir = mkdtempSync(join(tmpdir(), 'crmconf-schemas-'))
      try {
        cpSync(SCHEMAS_DIR, dir, { recursive: true })
        breakIt(dir)
        let error: unknown
        try {
          loadRegistry(dir)
        } catch (e) {
          error = e
        }
        expect(error).toBeInstanceOf(CrmConfError)
        expect((error as CrmConfError).code).toBe('CRMCONF_SCHEMA_INVALID')
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
  }
  it('loads the committed folder', () => {
    expect(loadRegistry(SCHEMAS_DIR).entries.size).toBe(schemaKeys().length)
  })
  it(
    'fails on an unknown keyword (strict)',
    withBrokenFolder((dir) => writeFileSync(join(dir, 'me.json'), JSON.stringify({ $id: 'https://crm-conformance.dev/schemas/me.json', type: 'object', requried: ['id'] }))),
  )
  it(
    'fails on an invalid schema',
    withBrokenFolder((dir) => writeFileSync(join(dir, 'me.json'), JSON.stringify({ $id: 'https://crm-conformance.dev/schemas/me.json', type: 'objekt' }))),
  )
  it('fails on a file that is not JSON', withBrokenFolder((dir) => writeFileSync(join(dir, 'error.json'), '{')))
  it(
    'fails on a wrong $id',
    withBrokenFolder((dir) => writeFileSync(join(dir, 'me.json'), JSON.stringify({ $id: 'https://example.com/me.json', type: 'object' }))),
  )
  it('fails on a missing record', withBrokenFolder((dir) => rmSync(join(dir, 'records/user.json'))))
  it(
    'fails on an unresolvable $ref',
    withBrokenFolder((dir) =>
      writeFileSync(join(dir, 'me.json'), JSON.stringify({ $id: 'https://crm-conformance.dev/schemas/me.json', $ref: 'https://crm-conformance.dev/schemas/nope.json' })),
    ),
  )
})

describe.each(RESOURCE_LIST.map((r) => [r.name] as [ResourceName]))('records/%s (§2)', (name) => {
  const key = recordKey(name)
  const valid = RECORD_EXAMPLES[name]
  const spec = RESOURCES[name]

  it('accepts the hand-written example, with no extra properties', () => {
    expect(validate(key, valid)).toEqual([])
    expect(extraProperties(key, valid)).toEqual([])
    expect(Object.keys(valid).sort()).toEqual(Object.keys(spec.record).sort())
  })
  it('accepts extra fields and reports them', () => {
    expect(validate(key, with_(valid, { extra: 1, another: null }))).toEqual([])
    expect(extraProperties(key, with_(valid, { extra: 1, another: null }))).toEqual(['extra', 'another'])
  })
  it('requires every listed field, naming it', () => {
    for (const field of Object.keys(spec.record)) {
      expect(validate(key, without(valid, field)), field).toEqual([{ path: field, message: 'is required', keyword: 'required' }])
    }
  })
  it('rejects null where the type is not nullable, and accepts it where it is', () => {
    for (const [field, t] of Object.entries(spec.record)) {
      const issues = validate(key, with_(valid, { [field]: null }))
      if (parseFieldType(t).nullable) expect(issues, field).toEqual([])
      else if (parseFieldType(t).base === 'enum') expect(at(issues), field).toEqual([`${field}:type`, `${field}:enum`])
      else expect(at(issues), field).toEqual([`${field}:type`])
    }
  })
  it('rejects a wrong type, naming the field', () => {
    expect(at(validate(key, with_(valid, { id: 123 })))).toEqual(['id:type'])
    for (const field of Object.keys(spec.record)) expect(at(validate(key, with_(valid, { [field]: true }))), field).toContain(`${field}:type`)
  })
  it('rejects a bad uuid', () => {
    expect(at(validate(key, with_(valid, { id: 'not-a-uuid' })))).toEqual(['id:format'])
    expect(at(validate(key, with_(valid, { id: '3f6c2b1e8a4d4c6f9b2e1d7a5e9c0f11' })))).toEqual(['id:format'])
    expect(at(validate(key, with_(valid, { id: 'urn:uuid:3f6c2b1e-8a4d-4c6f-9b2e-1d7a5e9c0f11' })))).toEqual(['id:format'])
    expect(validate(key, with_(valid, { id: '3F6C2B1E-8A4D-4C6F-9B2E-1D7A5E9C0F11' }))).toEqual([])
  })
  it('rejects a date-time without a time zone', () => {
    const field = 'createdAt' in spec.record ? 'createdAt' : 'occurredAt'
    expect(at(validate(key, with_(valid, { [field]: '2026-01-01T10:00:00' })))).toEqual([`${field}:format`])
    expect(at(validate(key, with_(valid, { [field]: '2026-01-01' })))).toEqual([`${field}:format`])
    expect(validate(key, with_(valid, { [field]: '2026-01-01T10:00:00+08:00' }))).toEqual([])
  })
  it('rejects a non-integer amount, where the record has integers', () => {
    const integers = Object.entries(spec.record).filter(([, t]) => parseFieldType(t).base === 'integer')
    for (const [field] of integers) {
      expect(at(validate(key, with_(valid, { [field]: 1.5 }))), field).toEqual([`${field}:type`])
      expect(at(validate(key, with_(valid, { [field]: '100' }))), field).toEqual([`${field}:type`])
    }
  })
  it('rejects a non-object and reports no extra properties for it', () => {
    expect(at(validate(key, null))).toEqual([':type'])
    expect(at(validate(key, []))).toContain(':type')
    expect(extraProperties(key, null)).toEqual([])
  })
  it('its list accepts the record and names the path of a bad one', () => {
    expect(validate(listKey(name), { data: [valid, valid], nextCursor: 'c1' })).toEqual([])
    expect(validate(listKey(name), { data: [], nextCursor: '' })).toEqual([])
    expect(at(validate(listKey(name), { data: [], nextCursor: null }))).toEqual(['nextCursor:type'])
    expect(at(validate(listKey(name), { data: [valid, with_(valid, { id: 'x' })], nextCursor: '' }))).toEqual(['data.1.id:format'])
    expect(at(validate(listKey(name), { data: [without(valid, 'id')], nextCursor: '' }))).toEqual(['data.0.id:required'])
  })
})

describe('record specifics', () => {
  it('enums only where the spec names them', () => {
    expect(at(validate('records/opportunity', with_(RECORD_EXAMPLES.opportunity, { status: 'pending' })))).toEqual(['status:enum'])
    expect(at(validate('records/product', with_(RECORD_EXAMPLES.product, { status: 'draft' })))).toEqual(['status:enum'])
    expect(at(validate('records/task', with_(RECORD_EXAMPLES.task, { status: 'open ' })))).toEqual(['status:enum'])
    expect(at(validate('records/comment', with_(RECORD_EXAMPLES.comment, { kind: 'private' })))).toEqual(['kind:enum'])
    expect(at(validate('records/article', with_(RECORD_EXAMPLES.article, { visibility: 'draft' })))).toEqual(['visibility:enum'])
    expect(at(validate('records/message', with_(RECORD_EXAMPLES.message, { direction: 'outbound', author: 'robot' })))).toEqual(['direction:enum', 'author:enum'])
    // Open in the record: task priority, lead source and status, payment method, activity kind, locale, language.
    expect(validate('records/task', with_(RECORD_EXAMPLES.task, { priority: 'p1' }))).toEqual([])
    expect(validate('records/lead', with_(RECORD_EXAMPLES.lead, { source: 'partner', status: 'converted' }))).toEqual([])
    expect(validate('records/payment', with_(RECORD_EXAMPLES.payment, { method: 'crypto' }))).toEqual([])
    expect(validate('records/activity', with_(RECORD_EXAMPLES.activity, { kind: 'meeting' }))).toEqual([])
    expect(validate('records/contact', with_(RECORD_EXAMPLES.contact, { locale: 'fr' }))).toEqual([])
    expect(validate('records/quotation', with_(RECORD_EXAMPLES.quotation, { language: 'fr' }))).toEqual([])
  })
  it('dates are calendar dates', () => {
    expect(at(validate('records/opportunity', with_(RECORD_EXAMPLES.opportunity, { expectedCloseDate: '2026-03-31T00:00:00Z' })))).toEqual(['expectedCloseDate:format'])
    expect(at(validate('records/invoice', with_(RECORD_EXAMPLES.invoice, { dueDate: '2026-02-30' })))).toEqual(['dueDate:format'])
    expect(at(validate('records/payment', with_(RECORD_EXAMPLES.payment, { paidOn: '10/01/2026' })))).toEqual(['paidOn:format'])
  })
  it('array items are typed', () => {
    expect(at(validate('records/account', with_(RECORD_EXAMPLES.account, { tags: ['a', 1] })))).toEqual(['tags.1:type'])
    expect(at(validate('records/article', with_(RECORD_EXAMPLES.article, { translations: ['en'] })))).toEqual(['translations.0:type'])
  })
  it('activity body is a preview of at most 500 characters (§8)', () => {
    expect(validate('records/activity', with_(RECORD_EXAMPLES.activity, { body: 'x'.repeat(500) }))).toEqual([])
    expect(at(validate('records/activity', with_(RECORD_EXAMPLES.activity, { body: 'x'.repeat(501) })))).toEqual(['body:maxLength'])
  })
  it('open inner shapes (§2 "Unspecified shapes")', () => {
    expect(validate('records/account', with_(RECORD_EXAMPLES.account, { address: { anything: [1, { deep: true }] }, custom: { x: null } }))).toEqual([])
  })
})

describe.each(writeBodies().map(({ resource, op }) => [`${resource}.${op}`, resource, op] as [string, ResourceName, WriteOp]))(
  'writes/%s (§4.4)',
  (name, resource, op) => {
    const key = writeKey(resource, op)
    const body = RESOURCES[resource][op]!
    const valid = WRITE_EXAMPLES[name]

    it('accepts the hand-written example', () => {
      expect(valid).toBeDefined()
      expect(validate(key, valid)).toEqual([])
    })
    it('requires exactly the fields marked required', () => {
      for (const field of body.required) expect(at(validate(key, without(valid, field))), field).toEqual([`${field}:required`])
      const minimal = Object.fromEntries(body.required.map((f) => [f, valid[f]]))
      expect(validate(key, minimal)).toEqual([])
      if (body.required.length === 0) expect(validate(key, {})).toEqual([])
    })
    it('rejects a wrong type in any field, naming it', () => {
      for (const field of Object.keys(body.fields)) {
        const issues = validate(key, with_(valid, { [field]: true }))
        expect(issues.map((i) => i.path), field).toContain(field)
      }
    })
    it('allows extra fields', () => {
      expect(validate(key, with_(valid, { somethingElse: 1 }))).toEqual([])
    })
  },
)

describe('write specifics', () => {
  it('email fields accept an address, the empty string or null, and nothing else (§4.1)', () => {
    for (const key of ['writes/account.create', 'writes/contact.update', 'writes/lead.create'] as SchemaKey[]) {
      const base = key === 'writes/lead.create' ? { fullName: 'x' } : key === 'writes/account.create' ? { name: 'x' } : {}
      for (const email of ['a@b.example', '', null]) expect(validate(key, { ...base, email }), `${key} ${email}`).toEqual([])
      for (const email of ['not-an-email', 3, ' ']) {
        const issues = validate(key, { ...base, email })
        expect(issues, `${key} ${email}`).toHaveLength(1)
        expect(issues[0]).toMatchObject({ path: 'email', keyword: 'anyOf' })
      }
    }
  })
  it('enumerated write values', () => {
    expect(at(validate('writes/contact.create', { locale: 'fr' }))).toEqual(['locale:enum'])
    expect(validate('writes/contact.create', { locale: null })).toEqual([])
    expect(at(validate('writes/quotation.create', { title: 'q', language: null }))).toEqual(['language:type', 'language:enum'])
    expect(at(validate('writes/lead.create', { fullName: 'x', source: 'referral' }))).toEqual(['source:enum'])
    expect(at(validate('writes/lead.update', { status: 'converted' }))).toEqual(['status:enum'])
    expect(at(validate('writes/task.create', { title: 't', priority: 'normal' }))).toEqual(['priority:enum'])
    expect(at(validate('writes/payment.create', { ...WRITE_EXAMPLES['payment.create'], method: 'crypto' }))).toEqual(['method:enum'])
    expect(at(validate('writes/activity.create', { kind: 'meeting', title: 't' }))).toEqual(['kind:enum'])
    expect(at(validate('writes/comment.create', { caseId: RECORD_EXAMPLES.case.id, kind: 'note', html: 'x' }))).toEqual(['kind:enum'])
    expect(at(validate('writes/product.replace', { ...WRITE_EXAMPLES['product.replace'], status: 'draft' }))).toEqual(['status:enum'])
  })
  it('uuid references and integers', () => {
    expect(at(validate('writes/order.create', { quoteId: 'Q-1' }))).toEqual(['quoteId:format'])
    expect(at(validate('writes/payment.create', { ...WRITE_EXAMPLES['payment.create'], amountSen: 50.5 }))).toEqual(['amountSen:type'])
    expect(at(validate('writes/product.create', { sku: 'A', name: 'B', priceSen: '19.99' }))).toEqual(['priceSen:type'])
  })
  it('dates written as strings (returned as dates)', () => {
    expect(validate('writes/payment.create', { ...WRITE_EXAMPLES['payment.create'], paidOn: 'tomorrow' })).toEqual([])
    expect(validate('writes/quotation.create', { title: 'q', validUntil: null })).toEqual([])
    expect(at(validate('writes/opportunity.create', { name: 'n', expectedCloseDate: '31/03/2026' }))).toEqual(['expectedCloseDate:format'])
    expect(at(validate('writes/task.update', { dueAt: '2026-01-01T10:00:00' }))).toEqual(['dueAt:format'])
  })
  it('line items are open objects and the path names the offending one', () => {
    expect(validate('writes/quotation.create', { title: 'q', items: [{ anything: 1 }] })).toEqual([])
    expect(at(validate('writes/quotation.create', { title: 'q', items: [{}, 'x'] }))).toEqual(['items.1:type'])
  })
  it('replace requires every field', () => {
    const issues = validate('writes/invoice.replace', { title: 'x' })
    expect(issues.map((i) => i.path).sort()).toEqual(['accountId', 'contactId', 'issueDate', 'items', 'language', 'notes', 'paymentTermsDays', 'terms'])
  })
  it('non-nullable fields refuse null', () => {
    expect(at(validate('writes/case.update', { priority: null }))).toEqual(['priority:type'])
    expect(validate('writes/case.create', { subject: 's', priority: null })).toEqual([])
    expect(at(validate('writes/account.update', { name: null }))).toEqual(['name:type'])
  })
})

describe('error envelope (§7.1)', () => {
  it('accepts the shape with and without details', () => {
    expect(validate('error', { error: { code: 'invalid_request', message: 'Some fields are missing or invalid' } })).toEqual([])
    expect(validate('error', { error: { code: 'invalid_request', message: 'm', details: [{ path: 'name', message: 'is required' }] } })).toEqual([])
    expect(validate('error', { error: { code: 'x', message: 'm', details: [] }, requestId: 'r' })).toEqual([])
  })
  it('names what is missing or wrong', () => {
    expect(at(validate('error', {}))).toEqual(['error:required'])
    expect(at(validate('error', { error: { message: 'm' } }))).toEqual(['error.code:required'])
    expect(at(validate('error', { error: { code: 401, message: 'm' } }))).toEqual(['error.code:type'])
    expect(at(validate('error', { error: 'Unauthorized' }))).toEqual(['error:type'])
    expect(at(validate('error', { error: { code: 'c', message: 'm', details: [{ path: 'a' }] } }))).toEqual(['error.details.0.message:required'])
    expect(at(validate('error', { error: { code: 'c', message: 'm', details: { path: 'a', message: 'b' } } }))).toEqual(['error.details:type'])
    expect(at(validate('error', { message: 'flat' }))).toEqual(['error:required'])
  })
})

describe('webhook event (§6.3)', () => {
  const event = {
    type: 'case.created',
    timestamp: '2026-01-05T09:30:00Z',
    data: { id: RECORD_EXAMPLES.case.id, entityType: 'case', object: RECORD_EXAMPLES.case, changes: {} },
  }
  it('accepts the named kinds', () => {
    expect(validate('webhook-event', event)).toEqual([])
    expect(validate('webhook-event', { ...event, type: 'invoice.paid' })).toEqual([])
    expect(validate('webhook-event', { ...event, type: 'sla_state.changed' })).toEqual([])
  })
  it('accepts any dotted kind: kinds beyond the two named are not shown (§6.2)', () => {
    for (const type of ['Case.Created', 'case.created.v2', 'sla-2.breached']) expect(validate('webhook-event', { ...event, type }), type).toEqual([])
  })
  it('rejects a kind that is not <entity>.<action>', () => {
    for (const type of ['case', 'case-created', '', 'case. created', '.created']) {
      expect(at(validate('webhook-event', { ...event, type })), type).toEqual(['type:pattern'])
    }
  })
  it('names missing parts', () => {
    expect(at(validate('webhook-event', without(event, 'timestamp')))).toEqual(['timestamp:required'])
    expect(at(validate('webhook-event', { ...event, data: without(event.data, 'changes') }))).toEqual(['data.changes:required'])
    expect(at(validate('webhook-event', { ...event, data: { ...event.data, object: null } }))).toEqual(['data.object:type'])
  })
})

describe('list envelope and /me', () => {
  it('list-envelope: data and a string nextCursor required on every page, "" included (§2, §4.1)', () => {
    expect(validate('list-envelope', { data: [1, 'x'], nextCursor: '' })).toEqual([])
    expect(at(validate('list-envelope', { nextCursor: 'a' }))).toEqual(['data:required'])
    expect(at(validate('list-envelope', { data: [] }))).toEqual(['nextCursor:required'])
    expect(at(validate('list-envelope', { data: [], nextCursor: null }))).toEqual(['nextCursor:type'])
    expect(at(validate('list-envelope', { data: [], nextCursor: 5 }))).toEqual(['nextCursor:type'])
    expect(at(validate('lists/account', { data: {}, nextCursor: '' }))).toContain('data:type')
    expect(extraProperties('lists/account', { data: [], nextCursor: '', total: 3 })).toEqual(['total'])
  })
  it('me: any object (§2 "Unspecified shapes")', () => {
    expect(validate('me', {})).toEqual([])
    expect(validate('me', { workspace: { id: 'w' }, key: { name: 'k', scopes: ['accounts:read'] }, user: {} })).toEqual([])
    expect(at(validate('me', []))).toEqual([':type'])
    expect(at(validate('me', null))).toEqual([':type'])
  })
})
