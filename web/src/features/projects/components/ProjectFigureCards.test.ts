import { mount, type VueWrapper } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { createAppI18n } from '../../../app/i18n'
import type { ProjectFigures } from '../types'
import ProjectFigureCards from './ProjectFigureCards.vue'

const none: ProjectFigures = {
  assessments: { total: 0, complete: 0, inProgress: 0, percentComplete: null, requirements: 0, answered: 0, byState: {} },
  overdue: { project: false, assessments: 0 },
  evidenceCoverage: { requirements: 12, withEvidence: 0, percent: 0 },
  conformance: { averageScore: null, assessed: 0 },
  warnings: [],
}

const some: ProjectFigures = {
  assessments: {
    total: 4,
    complete: 1,
    inProgress: 2,
    percentComplete: 25,
    requirements: 40,
    answered: 10,
    byState: { new: 1, in_progress: 2, complete: 1 },
  },
  overdue: { project: true, assessments: 2 },
  evidenceCoverage: { requirements: 40, withEvidence: 18, percent: 45 },
  conformance: { averageScore: 72.4, assessed: 1 },
  warnings: [
    { code: 'standard_not_published', message: 'The standard ISO 27001 is draft.' },
    { code: 'overdue', severity: 'critical', message: 'Assessment "Web shop" is 40 days overdue.' },
  ],
}

function mountCards(figures: ProjectFigures, locale: 'en' | 'de' = 'en') {
  return mount(ProjectFigureCards, { props: { figures }, global: { plugins: [createAppI18n(locale)] } })
}

function card(wrapper: VueWrapper, name: string): { value: string; text: string } {
  const el = wrapper.get(`[data-test="figure-${name}"]`)
  return { value: el.get('[data-test="figure-value"]').text(), text: el.text() }
}

describe('ProjectFigureCards', () => {
  it('treats a zero percentage with no assessments as unmeasured too', () => {
    const wrapper = mountCards({ ...none, assessments: { ...none.assessments, percentComplete: 0 } })
    expect(card(wrapper, 'completion').text).toContain('No assessments yet')
  })

  it('says "No assessments yet" instead of showing 0 % before any assessment exists', () => {
    const wrapper = mountCards(none)
    for (const name of ['completion', 'evidence', 'conformance']) {
      expect(card(wrapper, name).text, name).toContain('No assessments yet')
      expect(card(wrapper, name).value, name).not.toContain('%')
      expect(card(wrapper, name).value, name).toContain('—')
    }
    expect(card(wrapper, 'overdue').text).toContain('No assessments yet')
    expect(wrapper.text()).not.toMatch(/\b0\s?%/)
    expect(wrapper.get('[data-test="figure-warnings"]').text()).toContain('Nothing needs attention.')
  })

  it('shows percentages and counts once there are assessments', () => {
    const wrapper = mountCards(some)
    expect(card(wrapper, 'completion').value).toBe('25%')
    expect(card(wrapper, 'completion').text).toContain('1 of 4 assessments complete')
    expect(card(wrapper, 'completion').text).toContain('2 in progress')
    expect(card(wrapper, 'overdue').text).toContain('Project past its due date')
    expect(card(wrapper, 'overdue').text).toContain('2 overdue assessments')
    expect(card(wrapper, 'evidence').value).toBe('45%')
    expect(card(wrapper, 'evidence').text).toContain('18 of 40 requirements have evidence')
    expect(card(wrapper, 'conformance').value).toBe('72%')
    expect(card(wrapper, 'conformance').text).toContain('from one scored assessment')
  })

  it.each([
    ['en', '0 of 1 assessment complete', '0 of 1 requirement has evidence'],
    ['de', '0 von 1 Bewertung abgeschlossen', '0 von 1 Anforderung hat Nachweise'],
  ] as const)('says one assessment and one requirement in the singular (%s)', (locale, assessments, evidence) => {
    const one: ProjectFigures = {
      ...some,
      assessments: { ...some.assessments, total: 1, complete: 0, percentComplete: 0 },
      evidenceCoverage: { requirements: 1, withEvidence: 0, percent: 0 },
    }
    const text = mountCards(one, locale).text()
    expect(text).toContain(assessments)
    expect(text).toContain(evidence)
  })

  it('shows "—" for a figure the server could not compute', () => {
    const wrapper = mountCards({
      ...some,
      evidenceCoverage: { requirements: 0, withEvidence: 0, percent: null },
      conformance: { averageScore: null, assessed: 0 },
    })
    expect(card(wrapper, 'evidence').value).toContain('—')
    expect(card(wrapper, 'evidence').text).toContain('no requirements in scope')
    expect(card(wrapper, 'conformance').value).toContain('—')
    expect(card(wrapper, 'conformance').text).toContain('No assessment has been scored yet')
  })

  it('lists warnings, critical first, with their severity for screen readers', () => {
    const wrapper = mountCards(some)
    const items = wrapper.findAll('[data-test="figure-warning"]')
    expect(items.map((item) => item.classes().find((c) => c.startsWith('warning--')))).toEqual([
      'warning--critical',
      'warning--warning',
    ])
    expect(items[0]!.text()).toBe('Critical: Assessment "Web shop" is 40 days overdue.')
  })

  it('says the warnings it knows in the viewer’s language, with their counts, and the moves worth making as notes (issue 26 item 2)', () => {
    const figures: ProjectFigures = {
      ...some,
      warnings: [
        { code: 'ready_to_complete', severity: 'info', message: 'Every assessment of the project is complete.' },
        { code: 'assessments_due_after_project', severity: 'warning', count: 2, message: '2 assessment(s) are due after the project.' },
      ],
    }
    const texts = (locale: 'en' | 'de') => mountCards(figures, locale).findAll('[data-test="figure-warning"]').map((item) => item.text())
    expect(texts('en')).toEqual([
      "Warning: 2 assessments are due after the project's due date.",
      'Note: Every assessment of the project is complete: it can be marked complete (Change state).',
    ])
    expect(texts('de')[0]).toContain('2 Bewertungen sind erst nach dem Fälligkeitsdatum des Projekts fällig.')
  })

  it('speaks German', () => {
    const wrapper = mountCards(some, 'de')
    expect(card(wrapper, 'completion').value).toBe('25 %')
    expect(card(wrapper, 'completion').text).toContain('1 von 4 Bewertungen abgeschlossen')
    expect(mountCards(none, 'de').text()).toContain('Noch keine Bewertungen')
  })
})
