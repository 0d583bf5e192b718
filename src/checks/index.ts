// The check kit: everything a check may use, and the only door from suites/ into src/. A suite file imports from
// here and from suites/shared/; what a check needs and is not here belongs here, not in a deeper import.
export { expectErrorEnvelope, expectInvalidRequest, expectListEnvelope, expectRecord, expectSchema, expectStatus } from './assert.ts'
export { CheckFailed, CheckSkipped, defineCheck } from './define.ts'
export type { CheckContext, CheckDefinition, CheckSession, Level, Oracle, OracleAnswer, WriteNeed } from './types.ts'
export { FIXTURE_VARIABLES, KEY_COMPANIONS, KEY_VARIABLES } from '../config/config.ts'
export type { FixtureName, KeyRole } from '../config/config.ts'
export { readUntil } from './eventually.ts'
export { scopesFromMe, showsScopes, userIdInMe } from '../judge/me.ts'
export {
  createRecord,
  deleteRecord,
  itemPath,
  observeWalkEnd,
  postCreate,
  recordsNotInUse,
  replaceRecord,
  RUN_LABEL_FIELDS,
  runLabel,
  safeEmail,
  safePhone,
  tagged,
  trackCreated,
  updateRecord,
  walkAllPages,
  walkListPages,
} from './operations.ts'
export { replayCommand, replayTarget } from './replay.ts'
export { bodyFields, invalidBody, isKeyedField, validBody } from '../generators/index.ts'
export type { BodyOptions, Defect } from '../generators/index.ts'
export type { ApiClient, ApiResponse } from '../http/api-client.ts'
export type { Exchange } from '../http/exchange.ts'
export type { ApiRequest, Query } from '../http/transport.ts'
export { notCreatedAsDraft } from '../judge/draft.ts'
export type { DraftResource } from '../judge/draft.ts'
export { errorEnvelopeProblem, pathNames, refusalProblem } from '../judge/errors.ts'
export { comparable, mayRefuseUnknownKey, queryValueFor, recordMatches, revealsCase, unmatchedValue } from '../judge/filter-match.ts'
export {
  firstRepeated,
  firstUnmatched,
  pageSizeProblem,
  sameInstantAt,
  shortOfLimit,
  sinceSides,
  sinceViolation,
  SINCE_FIELD,
  timestampPrecision,
} from '../judge/lists.ts'
export type { SinceParam } from '../judge/lists.ts'
export { distinctInstants, firstMisordered } from '../judge/order.ts'
export type { Order, SortKey } from '../judge/order.ts'
export { shownPrecision } from '../judge/precision.ts'
export { headerInt, resetForm, retryAfterForm, wellFormedRetryAfterMs, retryAfterProblem, tooManyRequestsHeadersProblem } from '../judge/rate-header-forms.ts'
export { writeOnlyShown } from '../judge/records.ts'
export { isBodyJudged, isFromTheApi, isJsonContentType, missingRateHeaders } from '../judge/response.ts'
export { differingFields, sameMeaning } from '../judge/same-response.ts'
export { composedFields, deepEqual, describeMismatches, holdsWritten, isObject, meansWritten, textOfHtml, writtenMismatches } from '../judge/written.ts'
export { changedUnsent, cleared } from '../judge/unsent.ts'
export { namesUser, showsKeyName, showsWorkspace, stringsOf } from '../judge/me-parts.ts'
export type { AnyRecord, Mismatch } from '../judge/written.ts'
export { extraProperties, listKey, recordKey, validate } from '../schemas/registry.ts'
export type { SchemaIssue } from '../schemas/registry.ts'
export { ENUMS, LIMITS, ME_PATH, RESOURCES, RESOURCE_LIST, parseFieldType, scopeFor, writeBodies } from '../spec/resources.ts'
export type { BodySpec, FieldType, FilterSpec, ParsedFieldType, ResourceName, ResourceSpec, WriteOp } from '../spec/resources.ts'
export type { Delivery, RespondRule, Sink } from '../webhooks/sink.ts'
export { counted } from '../text/counted.ts'
export { cellsOfRequest } from '../coverage/explored.ts'
