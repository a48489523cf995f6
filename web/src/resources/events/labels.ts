import { useI18n } from 'vue-i18n'
import type { EventType, Notification } from './api'

/** Translate and HasKey are the parts of vue-i18n the labels need, so tests can pass their own. */
type Translate = (key: string, params?: Record<string, unknown>) => string
type HasKey = (key: string) => boolean

// typeKey is the i18n key of an event type's text; the type's dots nest it, so
// "user.created" lives at notifications.types.user.created.title.
function typeKey(type: string, part: 'title' | 'message'): string {
  return `notifications.types.${type}.${part}`
}

/** youPart is the key of a text's words for the user the event concerns (title → youTitle). */
function youPart(part: 'title' | 'message'): string {
  return part === 'title' ? 'youTitle' : 'youMessage'
}

/**
 * notificationText is a notification's title and message in the viewer's language
 * when the type has translations and the notification carries the values they
 * name (actor, summary); otherwise the text the server stored, in English.
 * A type covering several happenings names the one in `kind` (evidence "approved",
 * an assessment "started"), with words of its own under the type's key; a
 * notification to the user the event concerns (`you`) takes the words for them
 * ("submitted for your review") where the type has such words. A state the words
 * name is translated as its feature translates it.
 */
export function notificationText(
  notification: Pick<Notification, 'type' | 'title' | 'message' | 'params'>,
  t: Translate,
  te: HasKey,
): { title: string; message: string } {
  const params = notification.params ?? {}
  const base = `notifications.types.${notification.type}`
  const kinded = params.kind ? `${base}.${params.kind}` : base
  const node = te(`${kinded}.title`) ? kinded : base
  if (!te(`${node}.title`) || !te(`${node}.message`) || params.actor === undefined || params.summary === undefined) {
    return { title: notification.title, message: notification.message }
  }
  const you = params.you === 'true'
  const key = (part: 'title' | 'message') => (you && te(`${node}.${youPart(part)}`) ? `${node}.${youPart(part)}` : `${node}.${part}`)
  const values: Record<string, string> = { ...params }
  const [category] = notification.type.split('.')
  const state = params.state
  if (state !== undefined && category !== undefined && te(`${category}s.states.${state}`)) values.state = t(`${category}s.states.${state}`)
  return { title: t(key('title'), values), message: t(key('message'), values) }
}

/** EventLabels name event types and categories in the viewer's language. */
export interface EventLabels {
  /** type names an event type: its translated title, else the catalogue's, else the type itself. */
  type(type: string, catalogue?: readonly Pick<EventType, 'type' | 'title'>[]): string
  /** category names a category of event types, e.g. "Users" for "user". */
  category(category: string): string
  /** notification is notificationText in the current language. */
  notification(notification: Pick<Notification, 'type' | 'title' | 'message' | 'params'>): { title: string; message: string }
}

/** useEventLabels returns the event labels of the current language. */
export function useEventLabels(): EventLabels {
  const { t, te } = useI18n()
  const has: HasKey = (key) => te(key)
  return {
    type(type, catalogue = []) {
      const key = typeKey(type, 'title')
      if (has(key)) return t(key, { actor: '', summary: '' })
      return catalogue.find((entry) => entry.type === type)?.title || type
    },
    category(category) {
      const key = `events.categories.${category}`
      return has(key) ? t(key) : category
    },
    notification(notification) {
      return notificationText(notification, (key, params) => t(key, params ?? {}), has)
    },
  }
}
