import { describe, expect, it } from 'vitest'
import { detailsVerdict, errorEnvelopeProblem, pathNames, refusalProblem } from './errors.ts'

const refusal = (details?: unknown, code = 'invalid_request') => ({ error: { code, message: 'bad', ...(details === undefined ? {} : { details }) } })

describe('the §7.1 envelope', () => {
  it('names what a body lacks', () => {
    expect(errorEnvelopeProblem(refusal())).toBeUndefined()
    expect(errorEnvelopeProblem({ message: 'bad' })).toMatch(/^error body is not the §7.1 envelope: /)
    expect(errorEnvelopeProblem('Bad Request')).toBeDefined()
  })
})

describe('details naming a field (§7.2)', () => {
  it('reads a path in any common notation', () => {
    for (const path of ['email', '/email', 'body.email', '$.email', 'request.body.email']) expect(pathNames(path, 'email'), path).toBe(true)
    expect(pathNames('items[0].name', 'items/0/name')).toBe(true)
    expect(pathNames('emails', 'email')).toBe(false)
    expect(pathNames(undefined, 'email')).toBe(false)
  })
  it('tells no details from details naming other fields', () => {
    expect(detailsVerdict(refusal([{ path: 'email', message: 'x' }]), 'email')).toBeUndefined()
    expect(detailsVerdict(refusal(), 'email')).toEqual({ problem: 'no-details' })
    expect(detailsVerdict(refusal([{ path: 'name' }]), 'email')).toEqual({ problem: 'unnamed', paths: ['name'] })
  })
})

describe('refusalProblem (§7.3)', () => {
  it('wants a 400 invalid_request envelope naming the field', () => {
    expect(refusalProblem(400, refusal([{ path: 'email', message: 'x' }]), 'email')).toBeUndefined()
    expect(refusalProblem(201, {}, 'email')).toBe('accepted with 201')
    expect(refusalProblem(422, refusal(), 'email')).toBe('status is 422, expected 400')
    expect(refusalProblem(400, { error: 'bad' }, 'email')).toBe('the 400 is not the §7.1 error envelope')
    expect(refusalProblem(400, refusal([], 'validation_failed'), undefined)).toMatch(/error code is "validation_failed"/)
    expect(refusalProblem(400, refusal(undefined, 'parse_error'), undefined, { anyCode: true })).toBeUndefined()
    expect(refusalProblem(400, refusal(), 'email')).toBe('no details naming email')
    expect(refusalProblem(400, refusal([{ path: 'name', message: 'x' }]), 'email')).toBe('details do not name email (paths ["name"])')
  })
})
