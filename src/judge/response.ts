// What every response of the API shows, whichever operation it answers (§4, §7.1, §8), judged on the status and
// headers alone: the run-wide invariants (suites/invariants) and the traffic rules both ask these.

/** §8 "Rate headers": on every response. */
export const RATE_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'] as const

/** The §8 rate headers a response lacks (header names in lower case), empty when it has all three. */
export function missingRateHeaders(headers: Record<string, string | undefined>): string[] {
  return RATE_HEADERS.filter((h) => headers[h] === undefined)
}

/**
 * §8 puts the rate headers on every response, a 5xx included; but a 502, 503 or 504 is usually a gateway's page in
 * front of the API (a shared staging server), not the API's answer.
 */
export function isFromTheApi(status: number): boolean {
  return status !== 502 && status !== 503 && status !== 504
}

/**
 * A body whose JSON can be judged: not cut at the size cap, and not a 5xx (a crash's body, or a gateway's, says
 * nothing about the API's error format; 5xx are judged on their own, §7.8).
 */
export function isBodyJudged(status: number, truncated: boolean | undefined): boolean {
  return !truncated && status < 500
}

const JSON_TYPE = /^application\/([\w.+-]*\+)?json\b/i

/** §4 "Bodies are JSON (Content-Type: application/json)": also `application/problem+json` and parameters. */
export function isJsonContentType(value: string | undefined): boolean {
  return JSON_TYPE.test(value ?? '')
}
