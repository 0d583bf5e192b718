// The API's base URL as both its readers take it (CRM_BASE_URL for a run, `proxy --target`): an http(s) URL with
// no credentials (a URL is printed in every report; keys belong where they are redacted), no query or fragment
// (the API's paths are joined to it), its path ending with the version segment /v1 (§2).

export interface BaseUrlReading {
  /** The URL, when it is one at all (also when it breaks another rule). */
  url?: URL
  /** Every rule it breaks, each a sentence naming the variable or option; empty when it is a base URL. */
  problems: string[]
}

/**
 * Reads `raw` as a base URL. `name` opens each problem (`CRM_BASE_URL`, `proxy: --target`); `keyGoesIn` names
 * where a key belongs instead of the URL's user:password@, where the caller has such a place.
 */
export function parseBaseUrl(raw: string, name: string, keyGoesIn?: string): BaseUrlReading {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { problems: [`${name} is not a URL: ${raw}`] }
  }
  const problems: string[] = []
  if (!/^https?:$/.test(url.protocol)) problems.push(`${name} must be http(s): ${raw}`)
  if (url.username || url.password) problems.push(`${name} must not carry credentials (user:password@)${keyGoesIn ? `: put the key in ${keyGoesIn}` : ''}`)
  if (url.search || url.hash) problems.push(`${name} is a base URL, without query or fragment: ${raw}`)
  if (!/\/v1\/?$/.test(url.pathname)) {
    problems.push(`${name} must end with the version segment /v1 (e.g. https://crm.example.com/v1 or https://acme.example.com/api/v1), got ${raw}`)
  }
  return { url, problems }
}
