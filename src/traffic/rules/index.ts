// Every traffic rule, server side then client side: what `proxy` and `verify-traffic` judge (issue 20).
import type { TrafficRule } from '../types.ts'
import { CLIENT_RULES } from './client.ts'
import { LIST_RULES } from './lists.ts'
import { REFUSAL_RULES } from './refusals.ts'
import { REMEMBERED_RULES } from './remembered.ts'
import { RESPONSE_RULES } from './responses.ts'
import { SEQUENCE_RULES } from './sequences.ts'

export const TRAFFIC_RULES: TrafficRule[] = [...RESPONSE_RULES, ...LIST_RULES, ...SEQUENCE_RULES, ...REFUSAL_RULES, ...REMEMBERED_RULES, ...CLIENT_RULES]
