// Issue 38: a sender whose first retry comes only 4 s after a non-2xx: three nights compliant (retry-nights.ts).
import { threeRetryNights } from './retry-nights.ts'

threeRetryNights('alt-f', 'retries only after several seconds')
