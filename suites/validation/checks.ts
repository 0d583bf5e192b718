// §4.4 and §7.1–§7.3, table-driven from the write bodies of RESOURCES: for every body, each required field left
// out, a value of the wrong type for one field of each type, and a value outside each listed enum get a 400
// `invalid_request` whose details name the field; one check per (body, rule). Then what must be accepted (the
// three forms of an email field, §4.1) and bodies that are not a JSON object at all.
import { defineCheck, replaceRecord, tagged, updateRecord, RESOURCES, writeBodies } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, WriteNeed, ApiResponse, AnyRecord, BodySpec, ResourceName, WriteOp } from '../../src/checks/index.ts'
import { REPLACE_BODIES } from '../shared/bodies.ts'
import { createBase, target } from './bases.ts'
import { missingRequired, outsideEnums, wrongTypes, type BodyDefect } from './defects.ts'
import { emailChecks } from './email.ts'
import { bodyChecks } from './not-an-object.ts'
import { expectRefusals } from './judge.ts'

const area = 'validation'

interface Subject {
  resource: ResourceName
  op: WriteOp
  body: BodySpec
}

/** Records the API cannot delete (and comments and messages, which go out) need the full profile (rule 4). */
const writesOf = (resource: ResourceName): WriteNeed => (RESOURCES[resource].ops.delete ? 'safe' : 'full')

function operation(s: Subject): string {
  const path = RESOURCES[s.resource].path
  return s.op === 'create' ? `POST ${path}` : s.op === 'replace' ? `PUT ${path}/{id}` : `update ${path}/{id}`
}

/** The valid body a probe starts from, and how it is sent (create, update or replace of a run record). */
async function sender(ctx: CheckContext, s: Subject): Promise<{ valid: AnyRecord; send(body: AnyRecord): Promise<ApiResponse> }> {
  if (s.op === 'create') {
    const path = RESOURCES[s.resource].path
    return { valid: tagged(ctx, s.resource, await createBase(ctx, s.resource)), send: (body) => ctx.api.post(path, body) }
  }
  const record = await target(ctx, s.resource)
  if (s.op === 'update') return { valid: {}, send: (body) => updateRecord(ctx, s.resource, record.id, body) }
  return { valid: REPLACE_BODIES[s.resource]!(record), send: (body) => replaceRecord(ctx, s.resource, record.id, body) }
}

interface Rule {
  name: string
  clauses: string[]
  defects(body: BodySpec): BodyDefect[]
  title(s: Subject, defects: BodyDefect[]): string
}

const fieldsOf = (defects: BodyDefect[]) => [...new Set(defects.map((d) => d.field))].join(', ')

const RULES: Rule[] = [
  {
    name: 'required',
    clauses: ['§4.4', '§7.3', '§7.2'],
    defects: missingRequired,
    title: (s, d) =>
      d.length === 1
        ? `${operation(s)} without ${d[0]!.field} answers 400 invalid_request with details naming it`
        : `${operation(s)} without any one of ${s.op === 'replace' ? 'its fields (replace sends every field)' : `its required fields (${fieldsOf(d)})`} answers 400 invalid_request naming the missing field`,
  },
  {
    name: 'types',
    clauses: ['§4.4', '§7.3', '§7.2', '§2'],
    defects: wrongTypes,
    title: (s, d) => `${operation(s)} with a value of the wrong type in ${fieldsOf(d)} answers 400 invalid_request naming the field`,
  },
  {
    name: 'enums',
    clauses: ['§4.4', '§2', '§7.3', '§7.2'],
    defects: outsideEnums,
    title: (s, d) =>
      `${operation(s)} with ${fieldsOf(d)} outside ${d.length === 1 ? 'its' : 'their'} listed values answers 400 invalid_request naming the field`,
  },
]

function ruleCheck(s: Subject, rule: Rule): CheckDefinition | undefined {
  const defects = rule.defects(s.body)
  if (defects.length === 0) return undefined
  return defineCheck({
    id: `${area}.${s.resource}.${s.op}.${rule.name}`,
    clauses: rule.clauses,
    level: 'MUST',
    area,
    title: rule.title(s, defects),
    writes: writesOf(s.resource),
    async run(ctx) {
      const { valid, send } = await sender(ctx, s)
      const probes = defects.map((d) => ({ label: d.label, field: d.field, send: () => send(d.apply(valid)) }))
      await expectRefusals(ctx, probes, { clause: '§7.3', created: s.op === 'create' ? s.resource : undefined })
    },
  })
}

const subjects: Subject[] = writeBodies().map(({ resource, op, body }) => ({ resource, op, body }))

export const checks: CheckDefinition[] = [
  ...subjects.flatMap((s) => RULES.map((rule) => ruleCheck(s, rule)).filter((c): c is CheckDefinition => c !== undefined)),
  ...emailChecks,
  ...bodyChecks,
]
