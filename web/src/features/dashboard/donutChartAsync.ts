import { defineAsyncComponent } from 'vue'

/** DonutChartAsync is DonutChart loaded on first use: ECharts ships in its own chunk. */
export const DonutChartAsync = defineAsyncComponent(() => import('./DonutChart.vue'))
