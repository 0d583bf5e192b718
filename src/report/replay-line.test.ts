import { expect, test } from 'vitest'
import { rowReplay } from './replay-line.ts'

const embedded = { seed: 7, profile: 'safe' as const, target: { baseUrl: 'http://127.0.0.1:1/v1', embedded: true, variant: 'alt-a', faults: ['x.y'] } }

test("a row's own replay line is kept", () => {
  expect(rowReplay({ id: 'a.b.c', replay: ' crm-conformance run --only a.b.c ' }, embedded)).toBe('crm-conformance run --only a.b.c')
})

test("a row without one gets the run's target, seed and profile", () => {
  expect(rowReplay({ id: 'a.b.c', replay: '' }, embedded)).toBe(
    'crm-conformance run --embedded --only a.b.c --seed 7 --profile safe --variant alt-a --fault x.y',
  )
  const remote = { seed: 3, profile: 'full' as const, target: { baseUrl: 'https://crm.example.com/v1', embedded: false } }
  expect(rowReplay({ id: 'a.b.c', replay: '' }, remote)).toBe('crm-conformance run --only a.b.c --seed 3 --profile full --base-url https://crm.example.com/v1')
})
