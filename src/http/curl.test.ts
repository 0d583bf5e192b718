import { expect, it } from 'vitest'
import { curlFor } from './curl.ts'

it('replays with the key as a shell variable and the body quoted', () => {
  const line = curlFor(
    {
      method: 'POST',
      url: 'https://crm.example.com/v1/accounts',
      headers: { authorization: 'Bearer <redacted:CRM_API_KEY_FOREIGN>', 'content-type': 'application/json' },
      body: { name: "O'Brien" },
    },
    'foreign',
  )
  expect(line).toBe(
    `curl -sS -i -X POST 'https://crm.example.com/v1/accounts' -H "Authorization: Bearer $CRM_API_KEY_FOREIGN" -H 'content-type: application/json' --data-raw '{"name":"O'\\''Brien"}'`,
  )
})
