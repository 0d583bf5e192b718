import { describe, expect, it } from 'vitest'
import { parseFieldType, writeBodies } from '../../src/checks/index.ts'
import { surelyNotAccepted } from '../shared/states.ts'
import { formChecks, isCalendarDate } from './forms.ts'

describe('isCalendarDate', () => {
  it('takes a day of the calendar, leap days included', () => {
    expect(isCalendarDate('2026-03-01')).toBe(true)
    expect(isCalendarDate('2028-02-29')).toBe(true)
  })
  it('refuses what is no day: 30 February, month 13, a word, a date-time, a number', () => {
    for (const v of ['2026-02-30', '2027-02-29', '2026-13-45', 'tomorrow', '2026-03-01T00:00:00Z', 20260101, null]) expect(isCalendarDate(v)).toBe(false)
  })
})

describe('the form checks are generated from the write bodies', () => {
  const ids = new Set(formChecks.map((c) => c.id))
  it('every object-typed field of every body has its object-forms check', () => {
    for (const { resource, op, body } of writeBodies()) {
      const objects = Object.values(body.fields).some((t) => ['object', 'object[]'].includes(parseFieldType(t).base))
      expect(ids.has(`validation.${resource}.${op}.object-forms`), `${resource}.${op}`).toBe(objects)
    }
  })
  it('the date inputs the issue names each have a date-forms check', () => {
    for (const id of [
      'quotation.create',
      'quotation.replace',
      'invoice.create',
      'invoice.replace',
      'payment.create',
      'opportunity.create',
      'opportunity.update',
      'task.create',
      'task.update',
      'activity.create',
    ])
      expect(ids.has(`validation.${id}.date-forms`), id).toBe(true)
  })
  it('every body with two fields or more has a several-defects check', () => {
    for (const { resource, op, body } of writeBodies())
      expect(ids.has(`validation.${resource}.${op}.several-defects`), `${resource}.${op}`).toBe(Object.keys(body.fields).length > 1)
  })
})

describe('surelyNotAccepted', () => {
  it('an undecided non-draft or a turned-down quotation; never a draft, an accepted one or another decided state', () => {
    expect(surelyNotAccepted({ status: 'sent', decidedAt: null })).toBe(true)
    expect(surelyNotAccepted({ status: 'declined', decidedAt: '2026-01-01T00:00:00Z' })).toBe(true)
    expect(surelyNotAccepted({ status: 'draft', decidedAt: null })).toBe(false)
    expect(surelyNotAccepted({ status: 'accepted', decidedAt: null })).toBe(false)
    expect(surelyNotAccepted({ status: 'won', decidedAt: '2026-01-01T00:00:00Z' })).toBe(false)
  })
})
