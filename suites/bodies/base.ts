// The one record per resource that the update and replace properties write to, created once per run.
import { createRecord, tagged, validBody } from '../../src/checks/index.ts'
import type { CheckContext, AnyRecord, ResourceName } from '../../src/checks/index.ts'
import fc from 'fast-check'
import { bodyOptions } from './targets.ts'

/** Candidate bodies drawn (no request) to pick the fullest one. */
const CANDIDATES = 20

/**
 * The base record's bodies are drawn from a seed of their own, derived from the run seed: from the run seed
 * itself they would repeat the first bodies a property draws (same name, same address), which a server with
 * duplicate rules may rightly refuse.
 */
const BASE_SEED_SALT = 0x5bd1e995

const filled = (body: Record<string, unknown>) => Object.values(body).filter((v) => v !== null && v !== '' && !(Array.isArray(v) && v.length === 0)).length

/**
 * The record as created. Its body is the fullest of a few generated ones, so that an update which wrongly
 * clears the fields it was not sent, or a replace that keeps old values, has something to lose.
 */
export function baseRecord(ctx: CheckContext, resource: ResourceName): Promise<AnyRecord> {
  return ctx.session.memo(`bodies.base.${resource}`, async () => {
    const bodies = fc.sample(validBody(resource, 'create', bodyOptions(ctx, resource, 'create', 'base')), {
      seed: ctx.seed ^ BASE_SEED_SALT,
      numRuns: CANDIDATES,
    })
    const body = bodies.reduce((best, b) => (filled(b) > filled(best) ? b : best))
    const { record } = await createRecord(ctx, resource, tagged(ctx, resource, body))
    return record
  })
}
