import { defineAsyncComponent } from 'vue'

/** ScoreHistoryChartAsync is ScoreHistoryChart loaded on first use: ECharts ships in its own chunk. */
export const ScoreHistoryChartAsync = defineAsyncComponent(() => import('./ScoreHistoryChart.vue'))

/** PortfolioHeatmapAsync is PortfolioHeatmap loaded on first use. */
export const PortfolioHeatmapAsync = defineAsyncComponent(() => import('./PortfolioHeatmap.vue'))
