// Issue 38: a sender that retries at once and 100 ms later (byte for byte the attempt, in the same second), then a
// second and more apart: three nights compliant (retry-nights.ts).
import { threeRetryNights } from './retry-nights.ts'

threeRetryNights('alt-d', 'retries at once and within the same second')
