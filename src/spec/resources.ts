// The spec's tables as data (spec §2, §3, §4.1–§4.4, §5.4, §8). Checks, schemas, the OpenAPI document and the
// reference server are all generated from this one file: change the spec here, nowhere else.
// Past ~400 lines on purpose: it is data, one table per resource, read like the spec it copies.

export type ResourceName =
  | 'account'
  | 'contact'
  | 'case'
  | 'comment'
  | 'lead'
  | 'opportunity'
  | 'quotation'
  | 'order'
  | 'invoice'
  | 'payment'
  | 'product'
  | 'task'
  | 'activity'
  | 'article'
  | 'message'
  | 'user'

/**
 * Field types, a compact grammar:
 * - `uuid`, `string`, `date-time`, `date`, `integer`, `object`, `string[]`, `object[]`, each optionally `|null`;
 * - `email`: write bodies only; a string, null or the empty string (§4.1 "Email-type fields"), so always nullable;
 * - `enum:a,b,c` or `enum:a,b,c|null`: exactly the listed values.
 */
export type BaseFieldType = 'uuid' | 'string' | 'date-time' | 'date' | 'integer' | 'object' | 'string[]' | 'object[]'
export type FieldType = BaseFieldType | `${BaseFieldType}|null` | 'email' | `enum:${string}`

export interface ParsedFieldType {
  base: BaseFieldType | 'email' | 'enum'
  nullable: boolean
  /** The values of an enum (without null). */
  values?: string[]
}

const BASE_TYPES: ReadonlySet<string> = new Set<BaseFieldType>(['uuid', 'string', 'date-time', 'date', 'integer', 'object', 'string[]', 'object[]'])

export function parseFieldType(t: FieldType): ParsedFieldType {
  const nullable = t.endsWith('|null')
  const core = nullable ? t.slice(0, -'|null'.length) : t
  if (core === 'email') return { base: 'email', nullable: true }
  if (core.startsWith('enum:')) {
    const values = core.slice('enum:'.length).split(',')
    if (values.some((v) => v === '')) throw new Error(`Bad field type ${JSON.stringify(t)}: empty enum value`)
    return { base: 'enum', nullable, values }
  }
  if (!BASE_TYPES.has(core)) throw new Error(`Bad field type ${JSON.stringify(t)}`)
  return { base: core as BaseFieldType, nullable }
}

/** `enumType(ENUMS.language, true)` → `'enum:en,ms,zh-CN|null'`. */
export function enumType(values: readonly string[], nullable = false): FieldType {
  return `enum:${values.join(',')}${nullable ? '|null' : ''}`
}

/** Enumerations the spec names (§2, §3, §4.3, §4.4). Nothing else is an enum. */
export const ENUMS = {
  /** §2 "`locale` and `language` values that are enumerated"; enumerated only in the §4.4 write bodies. */
  language: ['en', 'ms', 'zh-CN'],
  /** §2 lead: "Lead `source` values on create". */
  leadSource: ['web_form', 'email', 'chat', 'social', 'import', 'api', 'manual'],
  /** §3 lead status: "the values settable on update"; other values exist in records. */
  leadWritableStatus: ['new', 'contacted', 'qualifying'],
  opportunityStatus: ['open', 'won', 'lost'],
  taskStatus: ['open', 'done', 'cancelled'],
  /** §2 task: "written as" these; the record's priority is an open string. */
  taskPriority: ['low', 'medium', 'high', 'urgent'],
  productStatus: ['active', 'archived'],
  /** §2 payment: "Method values on create"; the record's method is an open string. */
  paymentMethod: ['bank_transfer', 'cash', 'cheque', 'card', 'online', 'other'],
  /** §2 activity: "Kind values on create"; the record's kind is an open string. */
  activityKind: ['call', 'email', 'chat', 'note'],
  commentKind: ['public', 'internal'],
  articleVisibility: ['internal', 'public'],
  messageDirection: ['in', 'out', 'note', 'system'],
  messageAuthor: ['customer', 'agent', 'bot', 'system'],
} as const satisfies Record<string, readonly string[]>

export type EnumName = keyof typeof ENUMS

/** §5.4 scope areas. */
export type ScopeArea =
  | 'accounts'
  | 'contacts'
  | 'cases'
  | 'leads'
  | 'deals'
  | 'quotations'
  | 'orders'
  | 'invoices'
  | 'products'
  | 'tasks'
  | 'activities'
  | 'knowledge'
  | 'messages'
  | 'users'

/**
 * §5.4: "Areas in use: accounts, …, knowledge, messages; `users` has read only." Read literally, `knowledge`
 * has a write scope although no endpoint of §4.2 needs it (articles are read only).
 */
export const SCOPE_AREAS: Record<ScopeArea, { read: boolean; write: boolean }> = {
  accounts: { read: true, write: true },
  contacts: { read: true, write: true },
  cases: { read: true, write: true },
  leads: { read: true, write: true },
  deals: { read: true, write: true },
  quotations: { read: true, write: true },
  orders: { read: true, write: true },
  invoices: { read: true, write: true },
  products: { read: true, write: true },
  tasks: { read: true, write: true },
  activities: { read: true, write: true },
  knowledge: { read: true, write: true },
  messages: { read: true, write: true },
  users: { read: true, write: false },
}

/** Every scope string of §5.4 (`accounts:read`, `accounts:write`, …, `users:read`). */
export const ALL_SCOPES: string[] = Object.entries(SCOPE_AREAS).flatMap(([area, { read, write }]) => [
  ...(read ? [`${area}:read`] : []),
  ...(write ? [`${area}:write`] : []),
])

export type OpName = 'list' | 'get' | 'create' | 'update' | 'replace' | 'delete'
export type WriteOp = 'create' | 'update' | 'replace'

export interface BodySpec {
  fields: Record<string, FieldType>
  required: string[]
}

export interface FilterSpec {
  /** The query parameter. */
  param: string
  kind: 'uuid' | 'string' | 'enum'
  /** The accepted values of an enum filter (§3 rule 3: only these). */
  values?: string[]
  /** The record field it matches. */
  field: string
  /** How the value compares with the field (§4.3 "Meaning"). */
  match: 'exact' | 'lowercase' | 'uppercase' | 'e164'
  /** The §4.3 "Meaning" column, verbatim. */
  meaning: string
}

export interface ResourceSpec {
  name: ResourceName
  /** The collection path relative to `{base_url}/v1`, e.g. `/accounts`; the item path is `${path}/{id}`. */
  path: string
  /** §5.4: the area whose `:read` / `:write` scopes the resource needs. */
  scopeArea: ScopeArea
  /** §4.2: which operations exist. */
  ops: Record<OpName, boolean>
  /** §4.2 titles, verbatim, of the operations that exist. */
  titles: Partial<Record<OpName, string>>
  /** §1 rule 6 and §4.2: accounts and contacts go to a recycle bin; the others are deleted. */
  deleteMeans?: 'recycle-bin' | 'delete'
  /** The record carries `tags string[]`. */
  hasTags: boolean
  /** §2: every field always present in a returned record. */
  record: Record<string, FieldType>
  /** §2 "Writable but not in the record". */
  writeOnly: Record<string, FieldType>
  /** §8 and §2: maximum lengths of record string fields, where stated. */
  recordMaxLength?: Record<string, number>
  create?: BodySpec
  update?: BodySpec
  replace?: BodySpec
  /** §4.3, in the table's order. */
  filters: FilterSpec[]
}

// Shorthands for the tables below.
const U = 'uuid'
const UN = 'uuid|null'
const S = 'string'
const SN = 'string|null'
const DT = 'date-time'
const DTN = 'date-time|null'
const I = 'integer'
const IN = 'integer|null'
const O = 'object'
const ON = 'object|null'
const SA = 'string[]'
const OA = 'object[]'
const EMAIL = 'email'
const LANG = enumType(ENUMS.language)

function ops(...names: OpName[]): Record<OpName, boolean> {
  const all: OpName[] = ['list', 'get', 'create', 'update', 'replace', 'delete']
  return Object.fromEntries(all.map((op) => [op, names.includes(op)])) as Record<OpName, boolean>
}

function uuidFilter(param: string, meaning: string, field = param): FilterSpec {
  return { param, kind: 'uuid', field, match: 'exact', meaning }
}
function stringFilter(param: string, meaning: string, match: FilterSpec['match'] = 'exact', field = param): FilterSpec {
  return { param, kind: 'string', field, match, meaning }
}
function enumFilter(param: string, values: readonly string[], meaning = ''): FilterSpec {
  return { param, kind: 'enum', values: [...values], field: param, match: 'exact', meaning }
}

/** Every field of a replace body is required (§4.2 "send every field and all line items", §4.4). */
function replaceOf(body: BodySpec): BodySpec {
  return { fields: { ...body.fields }, required: Object.keys(body.fields) }
}

// §4.4 bodies shared by two operations.
const accountBody: Record<string, FieldType> = {
  name: S,
  legalName: SN,
  registrationNo: SN,
  industry: SN,
  website: SN,
  email: EMAIL,
  phone: SN,
  address: ON,
  tier: SN,
  parentId: UN,
  ownerId: UN,
  backupOwnerId: UN,
  teamId: UN,
  tags: SA,
  custom: O,
}

const contactBody: Record<string, FieldType> = {
  firstName: SN,
  lastName: SN,
  fullName: SN,
  email: EMAIL,
  mobile: SN,
  office: SN,
  home: SN,
  title: SN,
  department: SN,
  locale: enumType(ENUMS.language, true),
  ownerId: UN,
  teamId: UN,
  tags: SA,
  custom: O,
}

// §4.4: validUntil is "string|null (returned as date)": the body takes any string; only the record is a date.
const quotationBody: BodySpec = {
  fields: {
    title: S,
    dealId: UN,
    accountId: UN,
    contactId: UN,
    priceListId: UN,
    tier: SN,
    language: LANG,
    validUntil: SN,
    paymentTermsDays: IN,
    terms: SN,
    notes: SN,
    items: OA,
  },
  required: ['title'],
}

const invoiceBody: BodySpec = {
  fields: {
    title: S,
    accountId: UN,
    contactId: UN,
    language: LANG,
    issueDate: SN,
    paymentTermsDays: IN,
    terms: SN,
    notes: SN,
    items: OA,
  },
  required: ['title'],
}

const productBody: BodySpec = {
  fields: {
    sku: S,
    name: S,
    description: SN,
    unit: S,
    priceSen: I,
    costSen: IN,
    currency: S,
    taxCategoryId: UN,
    parentId: UN,
    options: O,
    status: enumType(ENUMS.productStatus),
  },
  required: ['sku', 'name', 'priceSen'],
}

const taskBody: Record<string, FieldType> = {
  title: S,
  description: SN,
  priority: enumType(ENUMS.taskPriority),
  dueAt: DTN,
  remindAt: DTN,
  assigneeId: UN,
  teamId: UN,
  entityType: SN,
  entityId: UN,
  recurrence: ON,
}

// Where §2 lists a field without a type (`createdAt; updatedAt`), it is a date-time like everywhere else.
export const RESOURCES: Record<ResourceName, ResourceSpec> = {
  account: {
    name: 'account',
    path: '/accounts',
    scopeArea: 'accounts',
    ops: ops('list', 'create', 'get', 'update', 'delete'),
    titles: { list: 'list', create: 'create', get: 'get', update: 'update', delete: 'move to recycle bin' },
    deleteMeans: 'recycle-bin',
    hasTags: true,
    record: {
      id: U,
      number: SN,
      name: S,
      legalName: SN,
      registrationNo: SN,
      industry: SN,
      website: SN,
      email: SN,
      phone: SN,
      address: ON,
      tier: SN,
      parentId: UN,
      ownerId: UN,
      teamId: UN,
      tags: SA,
      custom: O,
      lastActivityAt: DTN,
      createdAt: DT,
      updatedAt: DT,
    },
    writeOnly: { backupOwnerId: UN },
    create: { fields: { ...accountBody }, required: ['name'] },
    update: { fields: { ...accountBody }, required: [] },
    filters: [
      uuidFilter('ownerId', 'owned by this user'),
      uuidFilter('teamId', 'of this team'),
      uuidFilter('parentId', 'child accounts of this account'),
      stringFilter('email', 'exact address, lower case', 'lowercase'),
      stringFilter('tier', 'exact tier'),
    ],
  },

  contact: {
    name: 'contact',
    path: '/contacts',
    scopeArea: 'contacts',
    ops: ops('list', 'create', 'get', 'update', 'delete'),
    titles: { list: 'list', create: 'create', get: 'get', update: 'update', delete: 'move to recycle bin' },
    deleteMeans: 'recycle-bin',
    hasTags: true,
    record: {
      id: U,
      number: SN,
      firstName: SN,
      lastName: SN,
      fullName: S,
      email: SN,
      mobile: SN,
      office: SN,
      home: SN,
      title: SN,
      department: SN,
      // §2: open in the record; only the §4.4 write body enumerates locale.
      locale: SN,
      primaryAccountId: UN,
      ownerId: UN,
      teamId: UN,
      tags: SA,
      custom: O,
      lastActivityAt: DTN,
      createdAt: DT,
      updatedAt: DT,
    },
    writeOnly: { accountId: UN, accountRole: SN },
    // §4.4: "Create only: accountId, accountRole. All optional."
    create: { fields: { ...contactBody, accountId: UN, accountRole: SN }, required: [] },
    update: { fields: { ...contactBody }, required: [] },
    filters: [
      // §4.3 "primary account is this": the filter is accountId, the record field primaryAccountId.
      uuidFilter('accountId', 'primary account is this', 'primaryAccountId'),
      uuidFilter('ownerId', 'owned by this user'),
      stringFilter('email', 'exact address, lower case', 'lowercase'),
      stringFilter('mobile', 'exact mobile number in E.164 form', 'e164'),
    ],
  },

  case: {
    name: 'case',
    path: '/cases',
    scopeArea: 'cases',
    ops: ops('list', 'create', 'get', 'update', 'delete'),
    titles: { list: 'list', create: 'create', get: 'get', update: 'update', delete: 'delete' },
    deleteMeans: 'delete',
    hasTags: true,
    record: {
      id: U,
      number: S,
      subject: S,
      description: S,
      channel: S,
      categoryId: UN,
      subCategoryId: UN,
      priority: S,
      status: S,
      statusCategory: S,
      accountId: UN,
      contactId: UN,
      assigneeId: UN,
      teamId: UN,
      tags: SA,
      custom: O,
      resolution: SN,
      language: SN,
      firstResponseDueAt: DTN,
      resolutionDueAt: DTN,
      firstRespondedAt: DTN,
      slaState: S,
      resolvedAt: DTN,
      closedAt: DTN,
      createdAt: DT,
      updatedAt: DT,
    },
    writeOnly: {},
    create: {
      fields: {
        subject: S,
        description: S,
        categoryId: UN,
        subCategoryId: UN,
        priority: SN,
        status: SN,
        accountId: UN,
        contactId: UN,
        assigneeId: UN,
        teamId: UN,
        tags: SA,
        custom: O,
      },
      required: ['subject'],
    },
    // §4.4: no status, assignee or team on update, but resolution; priority is not nullable here.
    update: {
      fields: {
        subject: S,
        description: S,
        categoryId: UN,
        subCategoryId: UN,
        priority: S,
        accountId: UN,
        contactId: UN,
        tags: SA,
        custom: O,
        resolution: SN,
      },
      required: [],
    },
    filters: [
      stringFilter('status', 'exact status key'),
      stringFilter('priority', 'exact priority key'),
      uuidFilter('accountId', 'cases of that account'),
      uuidFilter('contactId', 'cases of that contact'),
      uuidFilter('assigneeId', 'cases of that assignee'),
      uuidFilter('teamId', 'cases of that team'),
    ],
  },

  comment: {
    name: 'comment',
    path: '/comments',
    scopeArea: 'cases',
    ops: ops('list', 'create', 'get'),
    titles: { list: 'list', create: 'create (add reply or internal note)', get: 'get' },
    hasTags: false,
    record: {
      id: U,
      caseId: U,
      kind: enumType(ENUMS.commentKind),
      authorType: S,
      authorId: UN,
      authorName: SN,
      // §2: sanitised HTML.
      body: S,
      via: SN,
      createdAt: DT,
    },
    writeOnly: {},
    // §4.4: the body is sent as `html`; the record returns it as `body`.
    create: { fields: { caseId: U, kind: enumType(ENUMS.commentKind), html: S }, required: ['caseId', 'kind', 'html'] },
    filters: [uuidFilter('caseId', 'comments on this case'), enumFilter('kind', ENUMS.commentKind, 'public replies or notes')],
  },

  lead: {
    name: 'lead',
    path: '/leads',
    scopeArea: 'leads',
    ops: ops('list', 'create', 'get', 'update', 'delete'),
    titles: { list: 'list', create: 'create', get: 'get', update: 'update', delete: 'delete' },
    deleteMeans: 'delete',
    hasTags: false,
    record: {
      id: U,
      number: S,
      fullName: S,
      companyName: SN,
      email: SN,
      phone: SN,
      // §2: the values are named "on create"; the record's source is an open string.
      source: S,
      sourceDetail: SN,
      // §3: other values than the writable three exist.
      status: S,
      ownerId: UN,
      teamId: UN,
      fields: O,
      score: IN,
      language: SN,
      accountId: UN,
      contactId: UN,
      dealId: UN,
      convertedAt: DTN,
      disqualifiedReason: SN,
      createdAt: DT,
      updatedAt: DT,
    },
    writeOnly: {},
    create: {
      fields: {
        fullName: S,
        companyName: SN,
        email: EMAIL,
        phone: SN,
        // §4.4 "source (values in section 2)": not marked |null, so null is not accepted.
        source: enumType(ENUMS.leadSource),
        sourceDetail: SN,
        ownerId: UN,
        teamId: UN,
        fields: O,
        // §4.4 lists lead language as string|null, not the enumerated values.
        language: SN,
      },
      required: ['fullName'],
    },
    update: {
      fields: {
        fullName: S,
        companyName: SN,
        email: EMAIL,
        phone: SN,
        status: enumType(ENUMS.leadWritableStatus),
        fields: O,
      },
      required: [],
    },
    filters: [
      stringFilter('status', 'exact status'),
      uuidFilter('ownerId', 'owned by this user'),
      stringFilter('email', 'exact address, lower case', 'lowercase'),
    ],
  },

  opportunity: {
    name: 'opportunity',
    path: '/opportunities',
    scopeArea: 'deals',
    ops: ops('list', 'create', 'get', 'update', 'delete'),
    titles: { list: 'list', create: 'create', get: 'get', update: 'update', delete: 'delete' },
    deleteMeans: 'delete',
    hasTags: false,
    record: {
      id: U,
      number: S,
      name: S,
      accountId: UN,
      contactId: UN,
      pipelineId: UN,
      stageKey: S,
      probability: I,
      amountSen: I,
      currency: S,
      expectedCloseDate: 'date|null',
      ownerId: UN,
      teamId: UN,
      source: SN,
      leadId: UN,
      competitors: SA,
      nextStep: SN,
      status: enumType(ENUMS.opportunityStatus),
      wonAt: DTN,
      lostAt: DTN,
      lostReason: SN,
      createdAt: DT,
      updatedAt: DT,
    },
    writeOnly: {},
    create: {
      fields: {
        name: S,
        accountId: UN,
        contactId: UN,
        pipelineId: UN,
        stageKey: SN,
        amountSen: I,
        currency: S,
        expectedCloseDate: 'date|null',
        ownerId: UN,
        teamId: UN,
        source: SN,
        competitors: SA,
        nextStep: SN,
      },
      required: ['name'],
    },
    // §4.4 lists update `name` without a type; it is the create body's string (not nullable).
    // Pipeline, stage and currency are not updatable (§4.4).
    update: {
      fields: {
        name: S,
        accountId: UN,
        contactId: UN,
        amountSen: I,
        expectedCloseDate: 'date|null',
        ownerId: UN,
        teamId: UN,
        source: SN,
        competitors: SA,
        nextStep: SN,
      },
      required: [],
    },
    filters: [
      enumFilter('status', ENUMS.opportunityStatus),
      uuidFilter('pipelineId', 'in this pipeline'),
      stringFilter('stageKey', 'exact stage key'),
      uuidFilter('accountId', 'of that account'),
      uuidFilter('ownerId', 'of that owner'),
    ],
  },

  quotation: {
    name: 'quotation',
    path: '/quotations',
    scopeArea: 'quotations',
    ops: ops('list', 'create', 'get', 'replace', 'delete'),
    titles: {
      list: 'list',
      create: 'create (draft)',
      get: 'get',
      replace: 'replace draft (send every field and all line items)',
      delete: 'delete draft',
    },
    deleteMeans: 'delete',
    hasTags: false,
    record: {
      id: U,
      number: S,
      version: I,
      title: S,
      dealId: UN,
      accountId: UN,
      contactId: UN,
      ownerId: UN,
      status: S,
      currency: S,
      language: S,
      validUntil: 'date|null',
      paymentTermsDays: IN,
      terms: SN,
      grossSen: I,
      discountSen: I,
      taxSen: I,
      totalSen: I,
      sentAt: DTN,
      decidedAt: DTN,
      createdAt: DT,
      updatedAt: DT,
    },
    writeOnly: { priceListId: UN, tier: SN, notes: SN, items: OA },
    create: quotationBody,
    replace: replaceOf(quotationBody),
    filters: [stringFilter('status', 'exact status'), uuidFilter('dealId', 'for this opportunity'), uuidFilter('accountId', 'for this account')],
  },

  order: {
    name: 'order',
    path: '/orders',
    scopeArea: 'orders',
    ops: ops('list', 'create', 'get'),
    titles: { list: 'list', create: 'create for an accepted quotation', get: 'get' },
    hasTags: false,
    record: {
      id: U,
      number: S,
      quoteId: UN,
      dealId: UN,
      accountId: UN,
      contactId: UN,
      ownerId: UN,
      title: S,
      status: S,
      currency: S,
      totalSen: I,
      taxSen: I,
      fulfilledAt: DTN,
      cancelledAt: DTN,
      createdAt: DT,
      updatedAt: DT,
    },
    writeOnly: {},
    create: { fields: { quoteId: U }, required: ['quoteId'] },
    filters: [stringFilter('status', 'exact status'), uuidFilter('accountId', 'of this account'), uuidFilter('quoteId', 'the order for this quotation')],
  },

  invoice: {
    name: 'invoice',
    path: '/invoices',
    scopeArea: 'invoices',
    ops: ops('list', 'create', 'get', 'replace'),
    titles: { list: 'list', create: 'create (draft)', get: 'get', replace: 'replace draft (send every field and all line items)' },
    hasTags: false,
    record: {
      id: U,
      number: S,
      orderId: UN,
      dealId: UN,
      accountId: UN,
      contactId: UN,
      ownerId: UN,
      title: S,
      status: S,
      currency: S,
      language: S,
      issueDate: 'date',
      dueDate: 'date',
      paymentTermsDays: I,
      totalSen: I,
      taxSen: I,
      paidSen: I,
      sentAt: DTN,
      paidAt: DTN,
      voidedAt: DTN,
      createdAt: DT,
      updatedAt: DT,
    },
    writeOnly: { terms: SN, notes: SN, items: OA },
    create: invoiceBody,
    replace: replaceOf(invoiceBody),
    filters: [stringFilter('status', 'exact status'), uuidFilter('accountId', 'of this account'), uuidFilter('orderId', 'for this order')],
  },

  payment: {
    name: 'payment',
    path: '/payments',
    scopeArea: 'invoices',
    ops: ops('list', 'create', 'get'),
    titles: { list: 'list', create: 'create (record against an invoice)', get: 'get' },
    hasTags: false,
    record: {
      id: U,
      invoiceId: U,
      number: S,
      amountSen: I,
      method: S,
      reference: SN,
      paidOn: 'date',
      note: SN,
      source: S,
      voidedAt: DTN,
      createdAt: DT,
    },
    writeOnly: {},
    create: {
      fields: {
        amountSen: I,
        method: enumType(ENUMS.paymentMethod),
        reference: SN,
        // §4.4 "string (returned as date)".
        paidOn: S,
        note: SN,
        invoiceId: U,
      },
      required: ['amountSen', 'method', 'paidOn', 'invoiceId'],
    },
    filters: [uuidFilter('invoiceId', 'for this invoice')],
  },

  product: {
    name: 'product',
    path: '/products',
    scopeArea: 'products',
    ops: ops('list', 'create', 'get', 'replace'),
    titles: { list: 'list', create: 'create', get: 'get', replace: 'replace (send every field)' },
    hasTags: false,
    record: {
      id: U,
      sku: S,
      name: S,
      description: SN,
      unit: S,
      priceSen: I,
      costSen: IN,
      currency: S,
      taxCategoryId: UN,
      parentId: UN,
      options: O,
      status: enumType(ENUMS.productStatus),
      createdAt: DT,
      updatedAt: DT,
    },
    writeOnly: {},
    create: productBody,
    replace: replaceOf(productBody),
    filters: [enumFilter('status', ENUMS.productStatus), stringFilter('sku', 'exact SKU, upper case', 'uppercase')],
  },

  task: {
    name: 'task',
    path: '/tasks',
    scopeArea: 'tasks',
    ops: ops('list', 'create', 'get', 'update', 'delete'),
    titles: { list: 'list', create: 'create', get: 'get', update: 'update', delete: 'delete' },
    deleteMeans: 'delete',
    hasTags: false,
    record: {
      id: U,
      number: SN,
      title: S,
      description: SN,
      status: enumType(ENUMS.taskStatus),
      // §2: "written as low, medium, high, urgent": enumerated in the write body only.
      priority: S,
      dueAt: DTN,
      remindAt: DTN,
      assigneeId: UN,
      teamId: UN,
      entityType: SN,
      entityId: UN,
      accountId: UN,
      contactId: UN,
      completedAt: DTN,
      createdAt: DT,
      updatedAt: DT,
    },
    writeOnly: { recurrence: ON },
    create: { fields: { ...taskBody }, required: ['title'] },
    update: { fields: { ...taskBody }, required: [] },
    filters: [
      enumFilter('status', ENUMS.taskStatus),
      uuidFilter('assigneeId', 'assigned to that user'),
      uuidFilter('accountId', 'about that account'),
      uuidFilter('contactId', 'about that contact'),
    ],
  },

  activity: {
    name: 'activity',
    path: '/activities',
    scopeArea: 'activities',
    ops: ops('list', 'create', 'get'),
    titles: { list: 'list', create: 'create (log an activity from another system)', get: 'get' },
    hasTags: false,
    record: {
      id: U,
      kind: S,
      subjectType: S,
      subjectId: U,
      accountId: UN,
      contactId: UN,
      title: S,
      body: SN,
      actorUserId: UN,
      actorType: S,
      occurredAt: DT,
    },
    // §2 and §8: "short preview, up to 500 characters".
    recordMaxLength: { body: 500 },
    writeOnly: {},
    create: {
      fields: {
        kind: enumType(ENUMS.activityKind),
        accountId: UN,
        contactId: UN,
        title: S,
        body: SN,
        occurredAt: DTN,
      },
      required: ['kind', 'title'],
    },
    filters: [uuidFilter('accountId', 'on that account'), uuidFilter('contactId', 'on that contact'), stringFilter('kind', 'exact kind')],
  },

  article: {
    name: 'article',
    path: '/articles',
    scopeArea: 'knowledge',
    ops: ops('list', 'get'),
    titles: { list: 'list', get: 'get' },
    hasTags: true,
    record: {
      id: U,
      number: SN,
      categoryId: UN,
      slug: S,
      visibility: enumType(ENUMS.articleVisibility),
      status: S,
      tags: SA,
      version: I,
      publishedAt: DTN,
      translations: OA,
      createdAt: DT,
      updatedAt: DT,
    },
    writeOnly: {},
    filters: [stringFilter('status', 'exact status'), enumFilter('visibility', ENUMS.articleVisibility), uuidFilter('categoryId', 'in this category')],
  },

  message: {
    name: 'message',
    path: '/messages',
    scopeArea: 'messages',
    ops: ops('list', 'create', 'get'),
    titles: { list: 'list', create: 'create (reply in a conversation through its channel)', get: 'get' },
    hasTags: false,
    record: {
      id: U,
      conversationId: U,
      direction: enumType(ENUMS.messageDirection),
      author: enumType(ENUMS.messageAuthor),
      authorUserId: UN,
      body: S,
      status: SN,
      createdAt: DT,
    },
    writeOnly: {},
    // §4.4: the body is sent as `text`; the record returns it as `body`.
    create: { fields: { conversationId: U, text: S }, required: ['conversationId', 'text'] },
    filters: [uuidFilter('conversationId', 'in this conversation'), enumFilter('direction', ENUMS.messageDirection)],
  },

  user: {
    name: 'user',
    path: '/users',
    scopeArea: 'users',
    ops: ops('list', 'get'),
    titles: { list: 'list', get: 'get' },
    hasTags: false,
    record: {
      id: U,
      email: S,
      displayName: S,
      title: SN,
      locale: SN,
      timezone: SN,
      status: S,
      availability: S,
      createdAt: DT,
    },
    writeOnly: {},
    // §4.3 users email: "exact address" (no case rule, unlike accounts, contacts and leads).
    filters: [stringFilter('status', 'exact status'), stringFilter('email', 'exact address')],
  },
}

/** In the order of the §4.2 endpoint table. */
export const RESOURCE_LIST: ResourceSpec[] = [
  RESOURCES.account,
  RESOURCES.contact,
  RESOURCES.case,
  RESOURCES.comment,
  RESOURCES.lead,
  RESOURCES.opportunity,
  RESOURCES.quotation,
  RESOURCES.order,
  RESOURCES.invoice,
  RESOURCES.payment,
  RESOURCES.product,
  RESOURCES.task,
  RESOURCES.activity,
  RESOURCES.article,
  RESOURCES.message,
  RESOURCES.user,
]

export const RESOURCE_NAMES: ResourceName[] = RESOURCE_LIST.map((r) => r.name)

/** §4.2 `/me`: "GET: check a key"; its scope is not shown (§5.9). */
export const ME_PATH = '/me'

/**
 * The resource of a path relative to `{base_url}/v1`: `/accounts`, `/accounts/{id}` or `/accounts/<uuid>`.
 * A query string and a trailing slash are ignored. Undefined for `/me` and unknown paths.
 */
export function resourceByPath(path: string): ResourceSpec | undefined {
  const clean = path.split(/[?#]/, 1)[0].replace(/\/+$/, '')
  const collection = clean.match(/^\/[^/]+/)?.[0]
  if (collection === undefined) return undefined
  const rest = clean.slice(collection.length)
  if (rest !== '' && !/^\/[^/]+$/.test(rest)) return undefined
  return RESOURCE_LIST.find((r) => r.path === collection)
}

/** The scope an operation needs (§4.2, §5.4): list/get need `<area>:read`, the writes `<area>:write`. */
export function scopeFor(resource: ResourceName, op: OpName): string {
  const area = RESOURCES[resource].scopeArea
  return `${area}:${op === 'list' || op === 'get' ? 'read' : 'write'}`
}

/** The write bodies that exist, in table order. */
export function writeBodies(): { resource: ResourceName; op: WriteOp; body: BodySpec }[] {
  const out: { resource: ResourceName; op: WriteOp; body: BodySpec }[] = []
  for (const r of RESOURCE_LIST) {
    for (const op of ['create', 'update', 'replace'] as const) {
      const body = r[op]
      if (body) out.push({ resource: r.name, op, body })
    }
  }
  return out
}

/** §4.1 and §8: the query parameters common to every list. */
export const LIST_PARAMETERS = {
  limit: { type: 'integer', min: 1, max: 100, default: 25 },
  cursor: { type: 'string' },
  sort: { type: 'enum', values: ['createdAt', 'updatedAt'], default: 'createdAt' },
  order: { type: 'enum', values: ['asc', 'desc'], default: 'desc' },
  createdSince: { type: 'date-time' },
  updatedSince: { type: 'date-time' },
} as const

/** §8 limits that are shown. */
export const LIMITS = {
  pageSizeMin: 1,
  pageSizeMax: 100,
  pageSizeDefault: 25,
  defaultRatePerMinute: 600,
  idempotencyRetentionHours: 24,
  activityBodyMaxLength: 500,
  webhookToleranceSeconds: 300,
} as const
