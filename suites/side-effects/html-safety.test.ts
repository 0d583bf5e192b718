import { describe, expect, it } from 'vitest'
import { unsafeParts } from './html-safety.ts'

describe('unsafeParts', () => {
  it('passes clean and escaped HTML', () => {
    expect(unsafeParts('<p>hello <a href="https://example.com">x</a></p>')).toEqual([])
    expect(unsafeParts('&lt;script&gt;alert(1)&lt;/script&gt; &lt;a href="javascript:x"&gt;')).toEqual([])
    expect(unsafeParts('<p>say javascript: or onerror= in text</p>')).toEqual([])
  })

  it('finds scripts, handlers and script URLs', () => {
    expect(unsafeParts('<script>alert(1)</script>')).toEqual(['a <script> element'])
    expect(unsafeParts('<img src="x" onerror="alert(1)">')).toEqual(['an onerror= attribute on <img>'])
    expect(unsafeParts('<IMG SRC=x ONLOAD=alert(1)>')).toEqual(['an onload= attribute on <img>'])
    expect(unsafeParts('<a href="javascript:alert(1)">x</a>')).toEqual(['a script URL in href= on <a>'])
    expect(unsafeParts("<a href=' jav&#x61;script&colon;alert(1)'>x</a>")).toEqual(['a script URL in href= on <a>'])
    expect(unsafeParts('<a href="java\tscript:alert(1)">x</a>')).toEqual(['a script URL in href= on <a>'])
  })
})
