import { describe, expect, it } from 'vitest'
import { standard } from './fixtures'
import { emptyFields, fieldsOf, newStandard, standardUpdate } from './standardForm'

describe('newStandard', () => {
  it('trims the texts and leaves out empty optional fields', () => {
    const body = newStandard({ ...emptyFields(), identifier: ' acme-sdl ', standardVersion: ' 1.0 ', name: ' Acme SDL ', owner: '  ' })
    expect(body).toEqual({ identifier: 'acme-sdl', standardVersion: '1.0', name: 'Acme SDL' })
  })

  it('sends owner, description and tags when given', () => {
    const body = newStandard({ ...emptyFields(), identifier: 'x', standardVersion: '1', name: 'X', owner: 'Acme', description: 'Text', tagIds: ['tg_1'] })
    expect(body).toMatchObject({ owner: 'Acme', description: 'Text', tagIds: ['tg_1'] })
  })
})

describe('standardUpdate', () => {
  it('is null when nothing changed', () => {
    const s = standard()
    expect(standardUpdate(s, fieldsOf(s))).toBeNull()
  })

  it('sends the version read and only what changed', () => {
    const s = standard()
    expect(standardUpdate(s, { ...fieldsOf(s), name: ' New name ', tagIds: ['tg_1', 'tg_2'] })).toEqual({
      version: 4,
      name: 'New name',
      tagIds: ['tg_1', 'tg_2'],
    })
  })

  it('treats a reordered tag set as unchanged', () => {
    const s = standard({ tags: [{ id: 'a', name: 'A', color: '#000000' }, { id: 'b', name: 'B', color: '#ffffff' }] })
    expect(standardUpdate(s, { ...fieldsOf(s), tagIds: ['b', 'a'] })).toBeNull()
  })
})
