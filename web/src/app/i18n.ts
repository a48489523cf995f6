import { createI18n } from 'vue-i18n'
import de from '../locales/de.json'
import en from '../locales/en.json'
import type { Locale } from './preferences'

/** MessageSchema is the shape of every locale file; `en` is the reference. */
export type MessageSchema = typeof en

/** messages holds every locale's strings; all files carry the same keys (tested). */
export const messages: Record<Locale, MessageSchema> = { en, de }

/**
 * createAppI18n creates the vue-i18n instance (Composition API mode) starting in
 * `locale`. Missing keys fall back to English.
 */
export function createAppI18n(locale: Locale) {
  return createI18n<[MessageSchema], Locale, false>({
    legacy: false,
    locale,
    fallbackLocale: 'en',
    messages,
  })
}
