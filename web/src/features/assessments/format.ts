// Dates and names as the assessment pages show them (days as every assessment list does).

export { formatDay } from '../../resources/assessments/format'

/** userName names a user by display name, else username. */
export function userName(user: { displayName?: string; username?: string; id: string } | null | undefined): string {
  if (!user) return ''
  return user.displayName || user.username || user.id
}
