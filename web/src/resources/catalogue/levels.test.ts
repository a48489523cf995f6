import { describe, expect, it } from 'vitest'
import { levelName, levelsDisjoint, levelsLookDisjoint } from './levels'

describe('levelName', () => {
  it('names a level once when its title repeats its identifier (ASVS)', () => {
    expect(levelName({ identifier: 'Level 1', title: 'Level 1' })).toBe('Level 1')
    expect(levelName({ identifier: 'L1', title: 'L1 Opportunistic' })).toBe('L1 Opportunistic')
  })
  it('joins a distinct identifier and title, and uses whichever exists', () => {
    expect(levelName({ identifier: 'L2', title: 'Standard' }, ' · ')).toBe('L2 · Standard')
    expect(levelName({ identifier: 'L3', title: '' })).toBe('L3')
    expect(levelName({ identifier: '', title: 'Advanced' })).toBe('Advanced')
  })
})

describe('levelsDisjoint', () => {
  it('is true when every requirement sits in one level only (ASVS 5.0.0)', () => {
    expect(levelsDisjoint([['l1'], ['l2'], ['l3'], []])).toBe(true)
  })
  it('is false for cumulative levels, and for a single level', () => {
    expect(levelsDisjoint([['l1', 'l2'], ['l2']])).toBe(false)
    expect(levelsDisjoint([['l1'], ['l1']])).toBe(false)
  })
})

describe('levelsLookDisjoint', () => {
  it('sees a higher level smaller than a lower one (ASVS 5.0.0: 70, 183, 92)', () => {
    expect(levelsLookDisjoint([{ position: 0, requirementCount: 70 }, { position: 1, requirementCount: 183 }, { position: 2, requirementCount: 92 }])).toBe(true)
    expect(levelsLookDisjoint([{ position: 0, requirementCount: 70 }, { position: 1, requirementCount: 253 }, { position: 2, requirementCount: 345 }])).toBe(false)
  })
})
