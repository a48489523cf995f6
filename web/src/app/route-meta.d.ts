import 'vue-router'

declare module 'vue-router' {
  interface RouteMeta {
    /** layout picks the frame a page renders in: the application shell or a bare, centred card. */
    layout?: 'app' | 'public'
    /** titleKey is the i18n key of the page title, shown in the browser tab. */
    titleKey?: string
    /**
     * requiresAuth says whether only a signed-in user may open the page; true unless
     * set to false (the public pages: setup and sign-in).
     */
    requiresAuth?: boolean
    /** permission is the key the user must hold to use the page, e.g. "admin.users". */
    permission?: string
  }
}
