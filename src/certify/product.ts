// PRODUCT.json: who claims compatibility, for which product and version. From flags, from a file the vendor
// filled in (--product-file), or prompted for on a terminal; flags win over the file.
import { readFileSync } from 'node:fs'
import { CrmConfError } from '../errors.ts'

export interface ProductInfo {
  /** The product's name, as customers know it. */
  product: string
  /** The product version the run tested. */
  version: string
  vendor: string
  /** Where a customer or the reviewers reach the vendor about this claim: an e-mail address or a URL. */
  contact: string
  /** The target: what was tested (hosted region, edition, deployment), in one or two sentences. */
  description: string
  /** Optional: the product's web page. */
  website?: string
}

export const REQUIRED_PRODUCT_FIELDS = ['product', 'version', 'vendor', 'contact', 'description'] as const
const ALL_FIELDS = new Set<string>([...REQUIRED_PRODUCT_FIELDS, 'website'])

/** The flag that sets each field (for messages). */
export const PRODUCT_FLAGS: Record<keyof ProductInfo, string> = {
  product: '--product',
  version: '--product-version',
  vendor: '--vendor',
  contact: '--contact',
  description: '--description',
  website: '--website',
}

export const PRODUCT_PROMPTS: Record<(typeof REQUIRED_PRODUCT_FIELDS)[number], string> = {
  product: 'Product name',
  version: 'Product version tested',
  vendor: 'Vendor',
  contact: 'Contact for this claim (e-mail or URL)',
  description: 'What was tested (deployment, edition, region)',
}

/** What certify fills in for the embedded reference server when nothing is given: it is the suite's own. */
export function embeddedProduct(toolVersion: string): ProductInfo {
  return {
    product: 'crm-conformance embedded reference server',
    version: toolVersion,
    vendor: 'crm-conformance',
    contact: 'n/a (self-test)',
    description: 'The reference implementation embedded in the suite (self-test of the certification path).',
  }
}

export class ProductInfoError extends CrmConfError {
  constructor(readonly problems: string[]) {
    super('CRMCONF_PRODUCT_INVALID', `PRODUCT.json cannot be written:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ProductInfoError'
  }
}

/** Reads a --product-file; its fields may be incomplete (flags or prompts fill the rest). */
export function readProductFile(path: string): Partial<ProductInfo> {
  let doc: unknown
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new ProductInfoError([`${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`])
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new ProductInfoError([`${path}: expected a JSON object with ${REQUIRED_PRODUCT_FIELDS.join(', ')}`])
  return doc as Partial<ProductInfo>
}

/** Later sources win; empty strings do not override. */
export function mergeProduct(...sources: (object | undefined)[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const source of sources) {
    for (const [key, value] of Object.entries(source ?? {})) if (value !== undefined && !(typeof value === 'string' && value.trim() === '')) out[key] = value
  }
  return out
}

/** Checks every field at once: required ones present, strings, one line (description excepted), nothing unknown. */
export function validateProduct(value: unknown, where = 'PRODUCT.json'): { product?: ProductInfo; problems: string[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problems: [`${where} is not a JSON object`] }
  const doc = value as Record<string, unknown>
  const problems: string[] = []
  for (const key of Object.keys(doc)) if (!ALL_FIELDS.has(key)) problems.push(`${where}: unknown field "${key}" (allowed: ${[...ALL_FIELDS].join(', ')})`)
  for (const key of REQUIRED_PRODUCT_FIELDS) {
    const v = doc[key]
    if (typeof v !== 'string' || v.trim() === '') problems.push(`${where}: "${key}" is missing (${PRODUCT_FLAGS[key]} or --product-file)`)
  }
  for (const key of ['product', 'version', 'vendor', 'contact', 'website'] as const) {
    const v = doc[key]
    if (v !== undefined && typeof v !== 'string') problems.push(`${where}: "${key}" must be a string`)
    else if (typeof v === 'string' && /[\r\n]/.test(v)) problems.push(`${where}: "${key}" must be one line`)
  }
  if (problems.length > 0) return { problems }
  const product: ProductInfo = {
    product: (doc.product as string).trim(),
    version: (doc.version as string).trim(),
    vendor: (doc.vendor as string).trim(),
    contact: (doc.contact as string).trim(),
    description: (doc.description as string).trim(),
  }
  if (typeof doc.website === 'string' && doc.website.trim()) product.website = doc.website.trim()
  return { product, problems }
}

/** PRODUCT.json's text: the fields in a fixed order, two-space indent, a final newline. */
export function renderProductJson(product: ProductInfo): string {
  const ordered: Record<string, string> = {}
  for (const key of [...REQUIRED_PRODUCT_FIELDS, 'website'] as const) if (product[key] !== undefined) ordered[key] = product[key]!
  return `${JSON.stringify(ordered, null, 2)}\n`
}
