import type { FormItemRule } from 'element-plus'
import { useI18n } from 'vue-i18n'
import { problemRule } from './formRule'
import {
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  confirmationProblem,
  emailProblem,
  passwordProblem,
  requiredProblem,
  usernameProblem,
} from './validation'

/** AccountRules build the rules of an account's fields, each reading its value (and the password policy) when it runs. */
export interface AccountRules {
  username(value: () => string): FormItemRule
  email(value: () => string): FormItemRule
  displayName(value: () => string): FormItemRule
  /** password checks a new password against the server's minimum length. */
  password(value: () => string, minLength: () => number): FormItemRule
  /** confirmation checks that the repeated password matches the first. */
  confirmation(password: () => string, confirmation: () => string): FormItemRule
}

/**
 * useAccountRules gives the checks of an account's fields in the words of every form
 * that shows them (setup, registration, users, the profile, password resets).
 */
export function useAccountRules(): AccountRules {
  const { t } = useI18n()
  return {
    username: (value) =>
      problemRule(() => usernameProblem(value()), {
        required: () => t('setup.validation.usernameRequired'),
        length: () => t('setup.validation.usernameLength', { min: USERNAME_MIN_LENGTH, max: USERNAME_MAX_LENGTH }),
      }),
    email: (value) =>
      problemRule(() => emailProblem(value()), {
        required: () => t('setup.validation.emailRequired'),
        invalid: () => t('setup.validation.emailInvalid'),
      }),
    displayName: (value) => problemRule(() => requiredProblem(value()), { required: () => t('setup.validation.displayNameRequired') }),
    password: (value, minLength) =>
      problemRule(() => passwordProblem(value(), minLength()), {
        required: () => t('setup.validation.passwordRequired'),
        tooShort: () => t('setup.validation.passwordTooShort', { min: minLength() }),
      }),
    confirmation: (password, confirmation) =>
      problemRule(() => confirmationProblem(password(), confirmation()), {
        required: () => t('setup.validation.confirmRequired'),
        mismatch: () => t('setup.validation.passwordMismatch'),
      }),
  }
}
