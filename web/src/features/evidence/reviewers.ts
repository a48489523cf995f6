import { api, unwrap } from '../../api/client'
import { PICKER_LIMIT } from '../../app/catalogue/api'
import { fetchMentionable, listLinks } from './api'
import type { Evidence, UserRef } from '../../app/evidence/types'

// Who may review a piece of evidence: an active user holding evidence.review who is not
// its author. The server checks this on submit (422 four_eyes / reviewer_cannot_review);
// these look-ups only offer sensible names.
//
// Viewers who may list users (admin.users) get exactly that: the roles granting
// evidence.review (GET /roles), then the active users in each (GET /users?role=…).
// Others cannot list users, so they are offered the people of the assessments the
// evidence is linked to (their teams and evidence participants), not the author.

/** REVIEW_PERMISSION is the permission a reviewer must hold. */
export const REVIEW_PERMISSION = 'evidence.review'

/** ReviewerSource says where the offered names come from. */
export type ReviewerSource = 'directory' | 'assessments'

/** reviewerRoleNames reads the names of the roles that grant evidence.review. */
export async function reviewerRoleNames(): Promise<string[]> {
  const page = await unwrap(api.GET('/api/v1/roles', {}))
  return (page.items ?? []).filter((role) => (role.permissions ?? []).includes(REVIEW_PERMISSION)).map((role) => role.name)
}

function byName(a: UserRef, b: UserRef): number {
  return (a.displayName || a.username).localeCompare(b.displayName || b.username)
}

function uniqueExcept(users: UserRef[], excludeId: string): UserRef[] {
  const seen = new Map<string, UserRef>()
  for (const user of users) if (user.id !== excludeId && !seen.has(user.id)) seen.set(user.id, user)
  return [...seen.values()].sort(byName)
}

/** searchDirectoryReviewers finds active users holding a reviewer role whose name matches `q` (needs admin.users). */
export async function searchDirectoryReviewers(q: string, roleNames: string[], authorId: string): Promise<UserRef[]> {
  const text = q.trim()
  const pages = await Promise.all(
    roleNames.map((role) =>
      unwrap(api.GET('/api/v1/users', { params: { query: { role, active: 'true', limit: PICKER_LIMIT, ...(text ? { q: text } : {}) } } })),
    ),
  )
  const users = pages.flatMap((page) => page.items ?? []).map((user) => ({ id: user.id, username: user.username, displayName: user.displayName }))
  return uniqueExcept(users, authorId)
}

/** assessmentPeople reads the people of the assessments the evidence is linked to, without its author. */
export async function assessmentPeople(evidence: Evidence): Promise<UserRef[]> {
  const links = await listLinks(evidence.id)
  const assessments = [...new Set(links.map((link) => link.assessmentId))]
  const lists = await Promise.all(assessments.map((id) => fetchMentionable(id).catch(() => [] as UserRef[])))
  return uniqueExcept(lists.flat(), evidence.author.id)
}

/** matches reports whether a user's name or username contains `q` (case-insensitive). */
export function matches(user: UserRef, q: string): boolean {
  const text = q.trim().toLowerCase()
  return text === '' || user.displayName.toLowerCase().includes(text) || user.username.toLowerCase().includes(text)
}
