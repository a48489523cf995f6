import { api, unwrap } from '../../api/client'

/**
 * requestPasswordReset asks for a reset link for `login`, a username or e-mail
 * address (POST /api/v1/auth/password-reset, 202). The server answers alike
 * whether or not the account exists; only failures such as the sign-in limit reject.
 */
export async function requestPasswordReset(login: string): Promise<void> {
  await unwrap(api.POST('/api/v1/auth/password-reset', { body: { login } }))
}

/**
 * confirmPasswordReset sets a new password with the token from the e-mailed link
 * (POST /api/v1/auth/password-reset/confirm, 204). An unknown, used or expired token
 * rejects with a 422 ApiError whose details carry the code INVALID_TOKEN.
 */
export async function confirmPasswordReset(token: string, password: string): Promise<void> {
  await unwrap(api.POST('/api/v1/auth/password-reset/confirm', { body: { token, password } }))
}
