import { useI18n } from 'vue-i18n'
import { ApiError, type ErrorDetail } from '../../api/errors'
import { placeFieldErrors, type PlacedErrors } from '../../app/fieldErrors'

/** ACCOUNT_FIELDS are the fields of a new account that the server may name in a failure's details. */
export const ACCOUNT_FIELDS = ['username', 'email', 'displayName', 'password'] as const

/** AccountField is one of ACCOUNT_FIELDS. */
export type AccountField = (typeof ACCOUNT_FIELDS)[number]

/** ACCOUNT_MAX_LENGTHS are the server's limits of a new account's fields, in characters. */
export const ACCOUNT_MAX_LENGTHS = { email: 254, displayName: 128, password: 128 } as const

// huma's words for a value over a schema's maxLength ("expected length <= 128").
const TOO_LONG = /^expected length <= (\d+)$/

/**
 * useAccountErrors sorts the server's refusal of a new account onto the form's fields,
 * in the form's words where it knows the problem (the server's schema checks answer in
 * terms such as "expected length <= 128", and in English), else in the server's.
 */
export function useAccountErrors(): (error: ApiError, passwordMinLength: number) => PlacedErrors<AccountField> {
  const { t } = useI18n()

  function readable(detail: ErrorDetail, passwordMinLength: number): string | undefined {
    const field = (detail.field ?? '').replace(/^body\./, '')
    const max = TOO_LONG.exec(detail.message ?? '')?.[1]
    if (max !== undefined) {
      if (field === 'email') return t('setup.validation.emailTooLong', { max })
      if (field === 'displayName') return t('setup.validation.displayNameTooLong', { max })
      if (field === 'password') return t('setup.validation.passwordTooLong', { max })
    }
    if (field === 'username' && detail.code === 'invalid') return t('setup.validation.usernameInvalid')
    if (field === 'email' && detail.code === 'invalid') return t('setup.validation.emailInvalid')
    if (field === 'displayName' && detail.code === 'required') return t('setup.validation.displayNameRequired')
    if (field === 'password' && detail.code === 'too_short') return t('setup.validation.passwordTooShort', { min: passwordMinLength })
    if (field === 'password' && detail.code === 'too_long') return t('setup.validation.passwordTooLong', { max: ACCOUNT_MAX_LENGTHS.password })
    return detail.message
  }

  return (error, passwordMinLength) => {
    const details = error.details.map((detail) => ({ ...detail, message: readable(detail, passwordMinLength) }))
    return placeFieldErrors(new ApiError(error.status, error.error, error.message, error.requestId, details), ACCOUNT_FIELDS)
  }
}
