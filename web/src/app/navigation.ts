import {
  Bell,
  ChatDotRound,
  Collection,
  Connection,
  DocumentChecked,
  FolderOpened,
  Grid,
  Key,
  List,
  MagicStick,
  Message,
  OfficeBuilding,
  Odometer,
  Paperclip,
  Postcard,
  PriceTag,
  Setting,
  Stamp,
  Lock,
  User,
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

/** NavGroup is a titled group of entries, shown as one menu in the main navigation. */
export interface NavGroup {
  /** id names the group, e.g. for tests and the active state. */
  id: string
  /** labelKey is the i18n key of the group's label. */
  labelKey: string
  icon: Component
  children: readonly NavEntry[]
}

/** NavItem is an entry or a group of the main navigation. */
export type NavItem = NavEntry | NavGroup

/** isNavGroup tells a group from a plain entry. */
export function isNavGroup(item: NavItem): item is NavGroup {
  return 'children' in item
}

/** ADMINISTRATION is the group of administration pages, each behind its own permission. */
export const ADMINISTRATION: NavGroup = {
  id: 'administration',
  labelKey: 'nav.administration',
  icon: Setting,
  children: [
    { routeName: 'admin-users', labelKey: 'nav.users', icon: User },
    { routeName: 'admin-roles', labelKey: 'nav.roles', icon: Lock },
    { routeName: 'admin-invites', labelKey: 'nav.invites', icon: Message },
    { routeName: 'admin-audit', labelKey: 'nav.audit', icon: List },
    { routeName: 'admin-webhooks', labelKey: 'nav.webhooks', icon: Connection },
    { routeName: 'admin-chat', labelKey: 'nav.chat', icon: ChatDotRound },
    { routeName: 'admin-email', labelKey: 'nav.email', icon: Postcard },
    { routeName: 'admin-notification-rules', labelKey: 'nav.notificationRules', icon: Bell },
    { routeName: 'admin-tags', labelKey: 'nav.tags', icon: PriceTag },
    { routeName: 'admin-platform-keys', labelKey: 'nav.platformKeys', icon: Key },
    { routeName: 'admin-sample-content', labelKey: 'nav.sampleContent', icon: MagicStick },
  ],
}

/**
 * NAV_ENTRIES is the full main navigation in display order. Features add their
 * routes as they are built; an entry shows up once its route exists, so the
 * navigation never leads to a page that is not there yet, and only for users who
 * hold the permission in its route's `meta.permission`. A group shows up when at
 * least one of its entries does, with just those entries.
 */
export const NAV_ENTRIES: readonly NavItem[] = [
  { routeName: 'dashboard', labelKey: 'nav.dashboard', icon: Odometer },
  { routeName: 'assessments', labelKey: 'nav.assessments', icon: DocumentChecked },
  { routeName: 'standards', labelKey: 'nav.standards', icon: Collection },
  { routeName: 'entities', labelKey: 'nav.entities', icon: OfficeBuilding },
  { routeName: 'projects', labelKey: 'nav.projects', icon: FolderOpened },
  { routeName: 'portfolio', labelKey: 'nav.portfolio', icon: Grid },
  { routeName: 'evidence', labelKey: 'nav.evidence', icon: Paperclip },
  { routeName: 'attestations', labelKey: 'nav.attestations', icon: Stamp },
  ADMINISTRATION,
]

/**
 * availableNavEntries returns the items whose routes the router knows and the
 * signed-in user may open; groups keep only such entries and are left out when
 * none remains.
 */
export function availableNavEntries(
  router: Router,
  session: Pick<SessionView, 'can'>,
  items: readonly NavItem[] = NAV_ENTRIES,
): NavItem[] {
  const routes = router.getRoutes()
  const available = (entry: NavEntry): boolean => {
    const route = routes.find((record) => record.name === entry.routeName)
    if (route === undefined) return false
    const key = route.meta.permission
    return key === undefined || session.can(key)
  }
  const result: NavItem[] = []
  for (const item of items) {
    if (!isNavGroup(item)) {
      if (available(item)) result.push(item)
      continue
    }
    const children = item.children.filter(available)
    if (children.length > 0) result.push({ ...item, children })
  }
  return result
}
