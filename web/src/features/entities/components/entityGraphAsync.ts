import { defineAsyncComponent } from 'vue'

/**
 * EntityGraphAsync is EntityGraph loaded on first use: ECharts (about 200 kB
 * gzipped) then ships in its own chunk that only pages showing a graph download.
 * Pages use this instead of importing EntityGraph.vue directly.
 */
export const EntityGraphAsync = defineAsyncComponent(() => import('./EntityGraph.vue'))
