import { useI18n } from 'vue-i18n'

// Users read a permission as what it lets them do ("Manage users and invites"), not as its
// key (admin.users). The words are the catalogue's descriptions (GET /api/v1/permissions),
// kept in every locale under `permissionNames`, so a page can name a permission without
// reading the catalogue (which needs admin.roles).

/**
 * usePermissionName returns a function naming a permission key in the viewer's language:
 * its words, else `fallback` (the catalogue's English description), else the key itself.
 */
export function usePermissionName(): (key: string, fallback?: string) => string {
  const { t, te } = useI18n()
  return (key, fallback) => {
    const path = `permissionNames.${key}`
    if (te(path)) return t(path)
    return fallback || key
  }
}
