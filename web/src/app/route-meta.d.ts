import 'vue-router'

declare module 'vue-router' {
  interface RouteMeta {
    /** layout picks the frame a page renders in: the application shell or a bare, centred card. */
    layout?: 'app' | 'public'
    /** titleKey is the i18n key of the page title, shown in the browser tab. */
    titleKey?: string
  }
}
