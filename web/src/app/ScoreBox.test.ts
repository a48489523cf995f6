import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import ScoreBox from './ScoreBox.vue'

const box = (score: number | null | undefined) => mount(ScoreBox, { props: { label: 'Conformance score', value: `${score} %`, score } })

describe('ScoreBox', () => {
  it('colours a score by its band: good from 80 %, middling from 50 %, poor below', () => {
    expect(box(92.5).classes()).toContain('score-box--high')
    expect(box(80).classes()).toContain('score-box--high')
    expect(box(79.99).classes()).toContain('score-box--mid')
    expect(box(50).classes()).toContain('score-box--mid')
    expect(box(35.58).classes()).toContain('score-box--low')
    expect(box(0).classes()).toContain('score-box--low')
  })

  it('stays neutral without a score, never green', () => {
    expect(box(null).classes()).toContain('score-box--none')
    expect(box(undefined).classes()).toContain('score-box--none')
  })
})
