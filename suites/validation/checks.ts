// §4.4 and §7.1–§7.3, table-driven from the write bodies of RESOURCES: for every body, each required field left
// out, a value of the wrong type for one field of each type, and a value outside each listed enum get a 400
// `invalid_request` whose details name the field; one check per (body, rule). Then what must be accepted (the
// three forms of an email field, §4.1) and bodies that are not a JSON object at all.
import { defineCheck, writeBodies } from '../../src/checks/index.ts'
import type { CheckDefinition, BodySpec } from '../../src/checks/index.ts'
import { missingRequired, outsideEnums, wrongTypes, type BodyDefect } from './defects.ts'
import { emailChecks } from './email.ts'
import { formChecks } from './forms.ts'
import { bodyChecks } from './not-an-object.ts'
import { expectRefusals, foldedProbes } from './judge.ts'
import { operation, sender, writesOf, type Subject } from './subjects.ts'

const area = 'validation'

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
      // The defects go together, one body per defect a field has (issue 39: room in the request budget).
      const probes = foldedProbes(defects, valid, send)
      await expectRefusals(ctx, probes, { clause: '§7.3', created: s.op === 'create' ? s.resource : undefined })
    },
  })
}

const subjects: Subject[] = writeBodies().map(({ resource, op, body }) => ({ resource, op, body }))

export const checks: CheckDefinition[] = [
  ...subjects.flatMap((s) => RULES.map((rule) => ruleCheck(s, rule)).filter((c): c is CheckDefinition => c !== undefined)),
  ...emailChecks,
  ...bodyChecks,
  ...formChecks,
]
