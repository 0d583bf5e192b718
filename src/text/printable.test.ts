// printable(): nothing outside text carries can act on a terminal; what it tried stays visible.
import { describe, expect, it } from 'vitest'
import { controlsIn, HOSTILE_ALL, HOSTILE_TEXT } from '../../test/hostile/corpus.ts'
import { hasControl, printable, printableLine } from './printable.ts'

describe('printable', () => {
  it('leaves ordinary text, accents, emoji, TAB, LF and CRLF alone', () => {
    for (const text of ['plain', 'Zoë Müller 日本 🙂', 'a\tb\nc', 'a\r\nb']) expect(printable(text)).toBe(text)
  })

  it('shows every escape sequence, control, bidi control, lone CR and lone surrogate as a visible escape', () => {
    expect(printable(HOSTILE_TEXT.osc52)).toBe('\\e]52;c;ZWNobyBwd25lZA==\\x07')
    expect(printable(HOSTILE_TEXT.bareCr)).toBe('innocent\\rREPLACED')
    expect(printable(HOSTILE_TEXT.c1csi)).toBe('\\x9B31m')
    expect(printable('a\u202Eb')).toBe('a\\u202Eb')
    expect(printable(HOSTILE_TEXT.loneHigh)).toBe('a\\uD800b')
    expect(printable(HOSTILE_TEXT.loneLow)).toBe('a\\uDC00b')
    expect(printable('🙂')).toBe('🙂')
    for (const text of [...Object.values(HOSTILE_TEXT), HOSTILE_ALL]) {
      expect(controlsIn(printable(text))).toEqual([])
      expect(controlsIn(printableLine(text))).toEqual([])
    }
  })

  it('printableLine keeps text on one line', () => {
    expect(printableLine('a\nb\tc\r\nd')).toBe('a\\nb\\tc\\r\\nd')
  })

  it('hasControl says whether printing would change the text', () => {
    expect(hasControl('ok')).toBe(false)
    expect(hasControl(HOSTILE_TEXT.bidi)).toBe(true)
  })
})
