import { describe, expect, it } from 'vitest'
import { createAppI18n } from '../../app/i18n'
import { notification } from './fixtures'
import { notificationText } from './labels'

function translator(locale: 'en' | 'de') {
  const { t, te } = createAppI18n(locale).global
  return {
    t: (key: string, params?: Record<string, unknown>) => t(key, params ?? {}),
    te: (key: string) => te(key),
  }
}

describe('notificationText', () => {
  it('renders a known type in the viewer’s language with the actor and the summary', () => {
    const { t, te } = translator('de')
    expect(notificationText(notification(), t, te)).toEqual({
      title: 'Benutzer geändert',
      message: 'Ada Admin hat das Konto grace geändert.',
    })
  })

  it('falls back to the stored text for a type without translations', () => {
    const { t, te } = translator('de')
    const stored = notification({ type: 'assessment.completed', title: 'Assessment completed', message: 'Done.' })
    expect(notificationText(stored, t, te)).toEqual({ title: 'Assessment completed', message: 'Done.' })
  })

  it('falls back to the stored text when the values are missing', () => {
    const { t, te } = translator('en')
    expect(notificationText(notification({ params: {} }), t, te)).toEqual({
      title: 'User updated',
      message: 'Ada Admin changed the account grace.',
    })
  })

  it('says what happened and to whom: the kind of a state change, and the words for the user it concerns', () => {
    const submitted = notification({
      type: 'evidence.state_changed', title: 'Evidence submitted for your review', message: 'Ada Admin submitted “SBOM” for your review.',
      params: { actor: 'Ada Admin', summary: 'SBOM', kind: 'submitted', you: 'true' },
    })
    const en = translator('en')
    expect(notificationText(submitted, en.t, en.te)).toEqual({
      title: 'Evidence submitted for your review', message: 'Ada Admin submitted “SBOM” for your review.',
    })
    const de = translator('de')
    expect(notificationText(submitted, de.t, de.te)).toEqual({
      title: 'Nachweis zu Ihrer Prüfung eingereicht', message: 'Ada Admin hat „SBOM“ zu Ihrer Prüfung eingereicht.',
    })
    const toOthers = { ...submitted, params: { actor: 'Ada Admin', summary: 'SBOM', kind: 'submitted' } }
    expect(notificationText(toOthers, de.t, de.te).title).toBe('Nachweis zur Prüfung eingereicht')
    const rejected = { ...submitted, params: { actor: 'Bea', summary: 'SBOM', kind: 'rejected', note: 'Add the scope.', you: 'true' } }
    expect(notificationText(rejected, en.t, en.te).message).toBe('Bea rejected your evidence “SBOM”: Add the scope.')
  })

  it('names the new state of an assessment and of a project in the viewer’s language', () => {
    const de = translator('de')
    const started = notification({ type: 'assessment.state_changed', params: { actor: 'Ada', summary: 'Shop L1', kind: 'started' } })
    expect(notificationText(started, de.t, de.te)).toEqual({ title: 'Bewertung begonnen', message: 'Ada hat die Bewertung „Shop L1“ begonnen.' })
    const added = notification({ type: 'assessment.assigned', params: { actor: 'Ada', summary: 'Shop L1', you: 'true' } })
    expect(notificationText(added, de.t, de.te).title).toBe('Sie wurden dem Team einer Bewertung hinzugefügt')
    const project = notification({ type: 'project.state_changed', params: { actor: 'Ada', summary: 'Shop', state: 'on_hold' } })
    expect(notificationText(project, de.t, de.te).message).toBe('Ada hat das Projekt „Shop“ auf Pausiert gesetzt.')
  })

  it('takes the words of the type when this UI does not know the kind', () => {
    const en = translator('en')
    const later = notification({ type: 'assessment.state_changed', params: { actor: 'Ada', summary: 'Shop L1', kind: 'teleported' } })
    expect(notificationText(later, en.t, en.te).title).toBe('Assessment state changed')
  })
})
