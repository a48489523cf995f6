import type { Role } from '../../resources/roles/api'
import type { Permission, RoleUpdate } from './api'

/** ROLE_NAME_PATTERN is the server's rule for a custom role's name. */
export const ROLE_NAME_PATTERN = /^[a-z][a-z0-9_]{1,62}$/

/** PermissionGroup is one category of the permission catalogue, in catalogue order. */
export interface PermissionGroup {
  category: string
  permissions: Permission[]
}

/** GroupState is how much of a category a role grants: all, some or none of it. */
export type GroupState = 'all' | 'some' | 'none'

/** groupPermissions groups the catalogue by category, keeping the server's order of both. */
export function groupPermissions(catalogue: readonly Permission[]): PermissionGroup[] {
  const groups = new Map<string, Permission[]>()
  for (const permission of catalogue) {
    const group = groups.get(permission.category)
    if (group) group.push(permission)
    else groups.set(permission.category, [permission])
  }
  return [...groups].map(([category, permissions]) => ({ category, permissions }))
}

/** groupState says how many of the group's permissions are selected. */
export function groupState(selected: readonly string[], group: PermissionGroup): GroupState {
  const set = new Set(selected)
  const count = group.permissions.filter((permission) => set.has(permission.key)).length
  if (count === 0) return 'none'
  return count === group.permissions.length ? 'all' : 'some'
}

/**
 * setGroup selects (on) or clears (off) every permission of a group and returns
 * the new selection; permissions of other groups stay as they were.
 */
export function setGroup(selected: readonly string[], group: PermissionGroup, on: boolean): string[] {
  const keys = new Set(group.permissions.map((permission) => permission.key))
  const others = selected.filter((key) => !keys.has(key))
  return on ? [...others, ...keys] : others
}

/** setPermission selects or clears one permission and returns the new selection. */
export function setPermission(selected: readonly string[], key: string, on: boolean): string[] {
  const others = selected.filter((other) => other !== key)
  return on ? [...others, key] : others
}

/** sameKeys reports whether two selections hold the same permissions, in any order. */
export function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a)
  const other = new Set(b)
  return set.size === other.size && [...other].every((key) => set.has(key))
}

/** RoleEdit holds the role editor's values. */
export interface RoleEdit {
  name: string
  description: string
  permissions: string[]
}

/**
 * roleUpdate builds the PATCH body for a custom role: the version it was read at
 * and only what changed. Returns null when nothing did.
 */
export function roleUpdate(role: Role, edit: RoleEdit): RoleUpdate | null {
  const update: RoleUpdate = { version: role.version }
  const description = edit.description.trim()
  if (description !== role.description) update.description = description
  if (!sameKeys(edit.permissions, role.permissions ?? [])) update.permissions = [...edit.permissions].sort()
  return Object.keys(update).length === 1 ? null : update
}
