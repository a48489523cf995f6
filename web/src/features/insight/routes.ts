import type { RouteRecordRaw } from 'vue-router'

/** insightRoutes holds the portfolio: entities against standards (/portfolio). */
export const insightRoutes: RouteRecordRaw[] = [
  {
    path: '/portfolio',
    name: 'portfolio',
    component: () => import('./PortfolioPage.vue'),
    meta: { layout: 'app', titleKey: 'insight.portfolio.title', permission: 'assessments.view' },
  },
]
