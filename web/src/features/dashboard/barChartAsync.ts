import { defineAsyncComponent } from 'vue'

/** BarChartAsync is BarChart loaded on first use: ECharts ships in its own chunk. */
export const BarChartAsync = defineAsyncComponent(() => import('./BarChart.vue'))
