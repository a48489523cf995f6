import type { ErrorDetail } from '../../api/errors'
import { confirmationProblem, passwordProblem, type FieldProblem } from '../../app/validation'

/** PasswordForm holds the change-password form's values. */
export interface PasswordForm {
  currentPassword: string
  newPassword: string
  confirmation: string
}

/** PasswordField names a field of the change-password form. */
export type PasswordField = keyof PasswordForm

/** PasswordProblem is what can be wrong with a field; 'unchanged': the new password is the current one. */
export type PasswordProblem = FieldProblem | 'unchanged'

/** currentPasswordProblem checks that the current password was entered (as typed: no trimming). */
export function currentPasswordProblem(form: PasswordForm): PasswordProblem {
  return form.currentPassword === '' ? 'required' : null
}

/**
 * newPasswordProblem checks the new password against the server's minimum length
 * and refuses one identical to the current password, which would change nothing.
 */
export function newPasswordProblem(form: PasswordForm, minLength: number): PasswordProblem {
  const problem = passwordProblem(form.newPassword, minLength)
  if (problem) return problem
  return form.newPassword === form.currentPassword ? 'unchanged' : null
}

/** confirmPasswordProblem checks that the repeated new password matches. */
export function confirmPasswordProblem(form: PasswordForm): PasswordProblem {
  return confirmationProblem(form.newPassword, form.confirmation)
}

/** passwordFormProblems checks every field of the form at once. */
export function passwordFormProblems(form: PasswordForm, minLength: number): Record<PasswordField, PasswordProblem> {
  return {
    currentPassword: currentPasswordProblem(form),
    newPassword: newPasswordProblem(form, minLength),
    confirmation: confirmPasswordProblem(form),
  }
}

/**
 * fieldOfDetail maps a field the server names in an error detail to the form field
 * that shows it: `currentPassword`, and `password` or `newPassword` for the new
 * password (schema errors may prefix them with `body.`). Other fields map to null.
 */
export function fieldOfDetail(detail: ErrorDetail): PasswordField | null {
  const name = (detail.field ?? '').replace(/^body\./, '')
  if (name === 'currentPassword') return 'currentPassword'
  if (name === 'password' || name === 'newPassword') return 'newPassword'
  return null
}
