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

describe('the page styles', () => {
  it('let a long page title break, hyphenated in the page language, instead of running off a phone', () => {
    const header = styled('<header class="page-header"><div><h1>Benachrichtigungsregeln</h1></div></header>')
    const title = getComputedStyle(header.querySelector('h1')!)
    expect(title.overflowWrap).toBe('break-word')
    expect(title.getPropertyValue('hyphens')).toBe('auto')
    expect(getComputedStyle(header.firstElementChild!).minWidth).toBe('0px')
  })

  it("give a table's empty text the table's width and ordinary line spacing, so German's two lines stay together", () => {
    const style = document.createElement('style')
    style.textContent = '.el-table__empty-text{width:50%;line-height:60px}'
    document.head.append(style)
    const table = styled('<div class="el-table"><span class="el-table__empty-text">Noch keine Benachrichtigungsregeln.</span></div>')
    const text = getComputedStyle(table.firstElementChild!)
    expect(text.width).toBe('auto')
    expect(text.lineHeight).toBe('1.5')
  })
})
