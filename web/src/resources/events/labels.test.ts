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
})
