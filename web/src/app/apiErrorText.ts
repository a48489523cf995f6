import { useI18n } from 'vue-i18n'
import { NETWORK_ERROR, type ApiError } from '../api/errors'
import { SESSION_NOT_KEPT } from './session/store'

/**
 * useApiErrorText returns a function that phrases an ApiError for the viewer:
 * the server's own message when it sent one, otherwise a translated explanation.
 */
export function useApiErrorText(): (error: ApiError) => string {
  const { t } = useI18n()
  return (error) => {
    if (error.message !== '') return error.message
    if (error.error === NETWORK_ERROR) return t('errors.network')
    if (error.error === SESSION_NOT_KEPT) return t('errors.sessionNotKept')
    return t('errors.unexpected', { status: error.status })
  }
}
