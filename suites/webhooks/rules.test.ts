import { describe, expect, it } from 'vitest'
import { kindNamesEntity } from './rules.ts'

describe('kindNamesEntity (§6.2 <entity>.<action> with §6.3 entityType)', () => {
  it.each([
    ['case.created', 'case'],
    ['invoice.paid', 'invoice'],
    ['Case.Created', 'case'],
    ['deal.won', 'opportunity'],
    ['opportunity.won', 'deal'],
    ['case_comment.created', 'comment'],
    ['timeline-entry.logged', 'activity'],
    ['case.status_changed', 'case'],
  ])('accepts %s for entityType %s', (kind, entityType) => expect(kindNamesEntity(kind, entityType)).toBe(true))

  it.each([
    ['cases.created', 'case'],
    ['ticket.created', 'case'],
    ['created', 'case'],
    ['.created', 'case'],
    ['invoice.paid', 'payment'],
  ])('refuses %s for entityType %s', (kind, entityType) => expect(kindNamesEntity(kind, entityType)).toBe(false))
})
