// Bodies that are not a JSON object at all (§4: bodies are JSON objects; §7.3): malformed JSON, and JSON that is
// an array or a string, on the account create and on every other write of §4.4. Each gets a 400 with the §7.1
// envelope, never a 5xx and never a record. The code is observed: §7.3 names invalid_request for invalid fields;
// a parse error may carry another code (§7.8).
import { defineCheck, runLabel, writeBodies, RESOURCES } from '../../src/checks/index.ts'
import type { AnyRecord, CheckDefinition } from '../../src/checks/index.ts'
import { expectRefusals, refusalProblem } from './judge.ts'
import { operation, sender, writesOf, type Subject } from './subjects.ts'

const area = 'validation'
const path = RESOURCES.account.path

/** 400 with the §7.1 envelope; any code (observed). */
const badRequest: typeof refusalProblem = (res) => {
  const problem = refusalProblem(res, undefined)
  return problem?.startsWith('error code is') ? undefined : problem
}

export const bodyChecks: CheckDefinition[] = [
  defineCheck({
    id: `${area}.body.malformed-json`,
    clauses: ['§7.3', '§7.1', '§4'],
    level: 'MUST',
    area,
    title: `POST ${path} with malformed JSON answers 400 with the error envelope, not a 5xx`,
    writes: 'safe',
    async run(ctx) {
      const res = await ctx.api.post(path, undefined, { rawBody: `{"name": "${runLabel(ctx, 'malformed')}", "tags": [` })
      ctx.observe('code', res.body?.error?.code)
      await expectRefusals(ctx, [{ label: 'a body cut short', send: async () => res }], { clause: '§7.3', created: 'account', judge: badRequest })
    },
  }),
  defineCheck({
    id: `${area}.body.not-an-object`,
    clauses: ['§4', '§7.3', '§7.1'],
    level: 'MUST',
    area,
    title: `POST ${path} with a body that is a JSON array or a JSON string answers 400 with the error envelope`,
    writes: 'safe',
    async run(ctx) {
      const name = runLabel(ctx, 'not an object')
      const probes = [
        { label: 'a JSON array holding a valid body', send: () => ctx.api.post(path, undefined, { rawBody: JSON.stringify([{ name }]) }) },
        { label: 'a JSON string', send: () => ctx.api.post(path, undefined, { rawBody: JSON.stringify(name) }) },
      ]
      await expectRefusals(ctx, probes, { clause: '§7.3', created: 'account', judge: badRequest })
    },
  }),
  // The accounts probe above is refused anyway for its missing name; a create whose fields are all optional
  // (§4.4 contacts) shows a server that reads a JSON scalar as an empty object and makes a record of it.
  defineCheck({
    id: `${area}.body.scalar-on-all-optional`,
    clauses: ['§4', '§7.3', '§7.1'],
    level: 'MUST',
    area,
    title: `POST ${RESOURCES.contact.path} (every field optional) with a body that is a JSON number, string, true or null answers 400, and creates nothing`,
    writes: 'safe',
    async run(ctx) {
      const scalars = ['42', JSON.stringify(runLabel(ctx, 'scalar body')), 'true', 'null']
      const probes = scalars.map((raw) => ({ label: `the JSON ${raw}`, send: () => ctx.api.post(RESOURCES.contact.path, undefined, { rawBody: raw }) }))
      await expectRefusals(ctx, probes, { clause: '§7.3', created: 'contact', judge: badRequest })
    },
  }),
  ...writeBodies()
    .filter(({ resource, op }) => !(op === 'create' && (resource === 'account' || resource === 'contact')))
    .map(arrayBodyCheck),
]

/**
 * Every other write of §4.4 (the two creates above are judged there) given its valid body inside a JSON array:
 * one request each, in the form a server most often lets through. A binder that takes the first element
 * (`Array.isArray(b) ? b[0] : b`) creates or changes a record from it; one that spreads the array into an object
 * ({"0": …}) meets no required field on a create and answers 200 to an update, whose fields are all optional.
 * An order's body names no real quotation (bases.ts: the run keeps its accepted one for state.order), so that
 * probe shows a server that fails on the array itself, not one that reads its first element.
 */
function arrayBodyCheck(s: Subject): CheckDefinition {
  return defineCheck({
    id: `${area}.${s.resource}.${s.op}.not-an-object`,
    clauses: ['§4', '§7.3', '§7.1'],
    level: 'MUST',
    area,
    title: `${operation(s)} with a JSON array holding a valid body answers 400 with the error envelope`,
    writes: writesOf(s.resource),
    async run(ctx) {
      const { valid, send, record } = await sender(ctx, s)
      const probe = {
        label: 'a JSON array holding a valid body',
        send: async () => {
          const res = await send([record ? unchanging(valid, record) : valid])
          ctx.observe('code', res.body?.error?.code)
          return res
        },
      }
      await expectRefusals(ctx, [probe], { clause: '§7.3', created: s.op === 'create' ? s.resource : undefined, judge: badRequest })
    },
  })
}

/**
 * A change body that writes the record's own values where it shows them: the run's validation record is shared,
 * and checks of it compare it before and after their refused probes (forms.ts), so an array a server wrongly
 * applies must change nothing they read.
 */
function unchanging(valid: AnyRecord, record: AnyRecord): AnyRecord {
  const own = (field: string) => Object.hasOwn(record, field) && (record[field] === null || typeof record[field] !== 'object')
  return Object.fromEntries(Object.entries(valid).map(([field, value]) => [field, own(field) ? record[field] : value]))
}
