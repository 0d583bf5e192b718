// The list parameters a server should refuse (§4.1 types, §8 page size 1–100, §7.3 400 for invalid input), each
// sent once per run on GET /accounts and shared by the checks that judge the answer.
import { RESOURCES } from '../../src/checks/index.ts'
import type { CheckContext, Level, ApiResponse } from '../../src/checks/index.ts'

export interface BadParameter {
  /** The id's `<subject>.<property>`. */
  id: string
  param: string
  value: string
  level: Level
  why: string
}

export const BAD_PARAMETERS: BadParameter[] = [
  // §8 says "page size 1–100" without naming the answer to a size outside it: refusing it is the convention.
  { id: 'limit.rejects-zero', param: 'limit', value: '0', level: 'SHOULD', why: 'page size 1–100 (§4.1, §8)' },
  { id: 'limit.rejects-101', param: 'limit', value: '101', level: 'SHOULD', why: 'page size 1–100 (§4.1, §8)' },
  { id: 'limit.rejects-negative', param: 'limit', value: '-1', level: 'SHOULD', why: 'page size 1–100 (§4.1, §8)' },
  { id: 'limit.rejects-non-integer', param: 'limit', value: 'abc', level: 'SHOULD', why: 'limit is an integer (§4.1)' },
  // §4.1 types these parameters but, as for limit, never says what a value outside the type gets (§7.3 speaks of
  // body fields): refusing is the convention, not the spec's word. Postgres itself reads `yesterday` as a time.
  { id: 'cursor.rejects-garbage', param: 'cursor', value: 'garbage!!', level: 'SHOULD', why: 'cursor is the nextCursor of the previous page (§4.1)' },
  { id: 'sort.rejects-unknown', param: 'sort', value: 'name', level: 'SHOULD', why: 'sort is createdAt or updatedAt (§4.1)' },
  { id: 'order.rejects-unknown', param: 'order', value: 'sideways', level: 'SHOULD', why: 'order is asc or desc (§4.1)' },
  { id: 'createdSince.rejects-non-date', param: 'createdSince', value: 'yesterday', level: 'SHOULD', why: 'createdSince is a date-time (§4.1)' },
  { id: 'updatedSince.rejects-non-date', param: 'updatedSince', value: 'yesterday', level: 'SHOULD', why: 'updatedSince is a date-time (§4.1)' },
]

const BAD_PARAMETER_PATH = RESOURCES.account.path

/** The answer to one bad parameter, requested once per run by whichever check asks first. */
export function badParameterResponse(ctx: CheckContext, bad: BadParameter): Promise<ApiResponse> {
  return ctx.session.memo(`pagination.bad.${bad.param}=${bad.value}`, () => ctx.api.get(BAD_PARAMETER_PATH, { [bad.param]: bad.value }))
}
