import { describe, expect, it } from 'vitest'
import { cleanTagDraft, tagColorProblem, tagDescriptionProblem, tagNameProblem, TAG_NAME_MAX_LENGTH } from './tagForm'

describe('tag form checks', () => {
  it('checks the name', () => {
    expect(tagNameProblem('  ')).toBe('required')
    expect(tagNameProblem('x'.repeat(TAG_NAME_MAX_LENGTH))).toBeNull()
    expect(tagNameProblem('x'.repeat(TAG_NAME_MAX_LENGTH + 1))).toBe('length')
    expect(tagNameProblem(' PCI ', ['gdpr', 'pci'])).toBe('taken')
    expect(tagNameProblem('pci-dss', ['pci'])).toBeNull()
  })

  it('checks the colour and the description', () => {
    expect(tagColorProblem('')).toBe('required')
    expect(tagColorProblem('blue')).toBe('invalid')
    expect(tagColorProblem('#ABC')).toBeNull()
    expect(tagDescriptionProblem('x'.repeat(1001))).toBe('length')
    expect(tagDescriptionProblem('short')).toBeNull()
  })

  it('cleans a draft into what the server stores', () => {
    expect(cleanTagDraft({ name: ' pci ', color: '#ABC', description: ' card data \n' })).toEqual({
      name: 'pci',
      color: '#aabbcc',
      description: 'card data',
    })
  })
})
