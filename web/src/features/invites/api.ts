import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'

/** Invite is an invitation to register, with its derived status; the token is never listed. */
export type Invite = components['schemas']['Invite']

/** InvitePage is one page of invites, newest first. */
export type InvitePage = components['schemas']['PageInvite']

/** NewInvite is what the create-invite dialog submits. */
export type NewInvite = components['schemas']['NewInvite']

/** CreatedInvite is the answer to a creation: the invite and, this once, its token. */
export type CreatedInvite = components['schemas']['CreatedInvite']

/** INVITE_PAGE_SIZE is how many invites one page lists. */
export const INVITE_PAGE_SIZE = 50

/** listInvites lists invites, newest first (GET /api/v1/admin/invites). */
export function listInvites(cursor?: string): Promise<InvitePage> {
  return unwrap(api.GET('/api/v1/admin/invites', { params: { query: { cursor, limit: INVITE_PAGE_SIZE } } }))
}

/** createInvite creates an invite (POST /api/v1/admin/invites, 201); only this answer holds its token. */
export function createInvite(invite: NewInvite): Promise<CreatedInvite> {
  return unwrap(api.POST('/api/v1/admin/invites', { body: invite }))
}

/** revokeInvite ends an unused invite (DELETE, 204); a consumed or expired one answers 409. */
export async function revokeInvite(id: string): Promise<void> {
  await unwrap(api.DELETE('/api/v1/admin/invites/{id}', { params: { path: { id } } }))
}
