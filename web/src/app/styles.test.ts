import { afterEach, beforeAll, describe, expect, it } from 'vitest'

// The rules of Element Plus that the application's style sheet corrects, as its theme has them.
const ELEMENT_PLUS = '.el-form-item__error{padding-top:2px;font-size:12px;line-height:1;position:absolute;top:100%;left:0}'

// Vitest stubs the application's .css imports, so the sheet is read from the disk (the
// tests run in web/); the module name is not a literal, for the types know no Node.
let APP = ''
beforeAll(async () => {
  const fs = (await import('node:fs' as string)) as { readFileSync(path: string, encoding: 'utf8'): string }
  APP = fs.readFileSync('src/app/styles.css', 'utf8')
})

function styled(html: string): HTMLElement {
  const style = document.createElement('style')
  style.textContent = ELEMENT_PLUS + APP
  document.head.append(style)
  document.body.innerHTML = html
  return document.body.firstElementChild as HTMLElement
}

afterEach(() => {
  document.head.innerHTML = ''
  document.body.innerHTML = ''
})

describe('the form styles', () => {
  it("keep a field's error in the flow, so a second line pushes the next field down instead of overlapping its label", () => {
    const item = styled(
      '<div class="el-form-item is-error"><div class="el-form-item__content"><input><div class="el-form-item__error">Das Passwort muss mindestens 12 Zeichen lang sein.</div></div></div>',
    )
    const error = getComputedStyle(item.querySelector('.el-form-item__error')!)
    expect(error.position).toBe('static')
    expect(error.width).toBe('100%')
    // Minus one line: a one-line error sits in the item's margin, where it always was.
    expect(error.marginBottom).toBe('calc(-2px - 1.25em)')
  })

  it('leave an inline error inline', () => {
    const item = styled('<div class="el-form-item__content"><div class="el-form-item__error el-form-item__error--inline">x</div></div>')
    expect(getComputedStyle(item.firstElementChild!).position).toBe('absolute')
  })
})
