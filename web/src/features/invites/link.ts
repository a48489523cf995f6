import type { NewInvite } from './api'

/** DEFAULT_EXPIRY_HOURS is how long an invite stays valid unless the admin says otherwise (one week). */
export const DEFAULT_EXPIRY_HOURS = 168

/** MAX_EXPIRY_HOURS is the server's limit (one year). */
export const MAX_EXPIRY_HOURS = 8760

/**
 * inviteLink builds the link an invitee opens: the registration page of this
 * installation with the token in the `invite` query, e.g.
 * "https://assay.example/register?invite=abc". The token is encoded, so whatever
 * it holds stays one query value.
 */
export function inviteLink(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}/register?invite=${encodeURIComponent(token)}`
}

/** InviteForm holds the create-invite dialog's values. */
export interface InviteForm {
  email: string
  intendedRole: string
  expiresInHours: number
  /** sendEmail asks the server to e-mail the link to `email`. */
  sendEmail?: boolean
}

/**
 * newInvite turns the dialog's values into the request: an empty e-mail address is
 * left out, and `sendEmail` is sent only when asked for (it needs an address).
 */
export function newInvite(form: InviteForm): NewInvite {
  const invite: NewInvite = { intendedRole: form.intendedRole, expiresInHours: form.expiresInHours }
  const email = form.email.trim()
  if (email !== '') invite.email = email
  if (form.sendEmail) invite.sendEmail = true
  return invite
}
