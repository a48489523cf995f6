import {
  Collection,
  DocumentChecked,
  FolderOpened,
  OfficeBuilding,
  Odometer,
  Paperclip,
  Setting,
  Stamp,
} from '@element-plus/icons-vue'
import type { Component } from 'vue'
import type { Router } from 'vue-router'
import type { SessionView } from './access'

/** NavEntry is one item of the main navigation. */
export interface NavEntry {
  /** routeName is the named route the entry opens. */
  routeName: string
  /** labelKey is the i18n key of the entry's label. */
  labelKey: string
  icon: Component
}

/**
 * NAV_ENTRIES is the full main navigation in display order. Features add their
 * routes as they are built; an entry shows up once its route exists, so the
 * navigation never leads to a page that is not there yet, and only for users who
 * hold the permission in its route's `meta.permission`.
 */
export const NAV_ENTRIES: readonly NavEntry[] = [
  { routeName: 'dashboard', labelKey: 'nav.dashboard', icon: Odometer },
  { routeName: 'assessments', labelKey: 'nav.assessments', icon: DocumentChecked },
  { routeName: 'standards', labelKey: 'nav.standards', icon: Collection },
  { routeName: 'entities', labelKey: 'nav.entities', icon: OfficeBuilding },
  { routeName: 'projects', labelKey: 'nav.projects', icon: FolderOpened },
  { routeName: 'evidence', labelKey: 'nav.evidence', icon: Paperclip },
  { routeName: 'attestations', labelKey: 'nav.attestations', icon: Stamp },
  { routeName: 'administration', labelKey: 'nav.administration', icon: Setting },
]

/**
 * availableNavEntries returns the entries whose routes the router knows and the
 * signed-in user may open.
 */
export function availableNavEntries(router: Router, session: Pick<SessionView, 'can'>): NavEntry[] {
  const routes = router.getRoutes()
  return NAV_ENTRIES.filter((entry) => {
    const route = routes.find((record) => record.name === entry.routeName)
    if (route === undefined) return false
    const key = route.meta.permission
    return key === undefined || session.can(key)
  })
}
