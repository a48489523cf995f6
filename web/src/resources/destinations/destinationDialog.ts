import type { FormInstance, FormItemRule } from 'element-plus'
import { computed, watch, type ComputedRef, type Ref } from 'vue'
import { useI18n } from 'vue-i18n'
import { problemRule } from '../../app/formRule'
import { urlProblem } from './destinationForm'

/** DestinationDraft is what every destination dialog edits besides its own fields. */
export interface DestinationDraft {
  url: string
  eventTypes: string[]
}

/** DestinationMessages name a destination kind's own messages (the rest are the webhooks'). */
export interface DestinationMessages {
  nameRequired: string
  urlRequired: string
}

/**
 * useDestinationRules are the rules of a webhook or chat dialog: a name, a URL (none
 * needed while `keepUrl`: the stored one stays) and at least one event. The events'
 * error goes away as soon as something is chosen.
 */
export function useDestinationRules(
  form: DestinationDraft,
  formRef: Ref<FormInstance | undefined>,
  messages: DestinationMessages,
  keepUrl: () => boolean = () => false,
): ComputedRef<Record<'name' | 'url' | 'eventTypes', FormItemRule[]>> {
  const { t } = useI18n()
  watch(
    () => form.eventTypes,
    (entries) => {
      if (entries.length > 0) formRef.value?.clearValidate('eventTypes')
    },
  )
  return computed(() => ({
    name: [{ required: true, whitespace: true, trigger: 'blur', message: t(messages.nameRequired) }],
    url: [
      problemRule(() => (keepUrl() && form.url.trim() === '' ? null : urlProblem(form.url)), {
        required: () => t(messages.urlRequired),
        invalid: () => t('webhooks.form.urlInvalid'),
        scheme: () => t('webhooks.form.urlScheme'),
        credentials: () => t('webhooks.form.urlCredentials'),
      }),
    ],
    eventTypes: [problemRule(() => (form.eventTypes.length === 0 ? 'required' : null), { required: () => t('events.filter.required') })],
  }))
}
