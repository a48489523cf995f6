import { afterEach, describe, expect, it, vi } from 'vitest'
import { watchPastedOverLimit } from './pasteLimit'

function paste(field: HTMLElement, text: string) {
  const event = new Event('paste', { bubbles: true, cancelable: true }) as Event & { clipboardData: unknown }
  Object.defineProperty(event, 'clipboardData', { value: { getData: () => text } })
  field.dispatchEvent(event)
}

describe('watchPastedOverLimit', () => {
  let stop: () => void = () => {}
  afterEach(() => {
    stop()
    document.body.innerHTML = ''
  })

  it('says so when pasted text does not fit the field, and only then', () => {
    const notify = vi.fn()
    stop = watchPastedOverLimit(document, (limit) => `at most ${limit}`, notify)
    const input = document.createElement('input')
    input.maxLength = 10
    input.value = 'abcd'
    document.body.append(input)
    input.setSelectionRange(4, 4)

    paste(input, '123456') // 4 + 6 = 10 fits
    expect(notify).not.toHaveBeenCalled()
    paste(input, '1234567') // 11 does not
    expect(notify).toHaveBeenCalledWith('at most 10')
  })

  it('counts the selection the paste replaces, and covers text areas', () => {
    const notify = vi.fn()
    stop = watchPastedOverLimit(document, (limit) => `at most ${limit}`, notify)
    const area = document.createElement('textarea')
    area.maxLength = 5
    area.value = 'hello'
    document.body.append(area)
    area.setSelectionRange(0, 5)
    paste(area, 'world')
    expect(notify).not.toHaveBeenCalled()
    area.setSelectionRange(5, 5)
    paste(area, '!')
    expect(notify).toHaveBeenCalledOnce()
  })

  it('leaves fields without a limit alone and stops when asked', () => {
    const notify = vi.fn()
    stop = watchPastedOverLimit(document, () => 'cut', notify)
    const free = document.createElement('input')
    document.body.append(free)
    paste(free, 'x'.repeat(100_000))
    expect(notify).not.toHaveBeenCalled()
    const limited = document.createElement('input')
    limited.maxLength = 1
    document.body.append(limited)
    stop()
    paste(limited, 'xyz')
    expect(notify).not.toHaveBeenCalled()
  })
})
