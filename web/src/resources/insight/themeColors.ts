import type { Ref } from 'vue'
import { useThemeColors } from '../../app/themeColors'
import type { ChartColors } from './shape'

/**
 * useChartColors follows the theme's colours the insight charts paint with: text and lines,
 * and the light tints of success, warning and danger for the score bands (in the dark theme
 * Element Plus darkens them, so the primary text stays readable on each).
 */
export function useChartColors(): Readonly<Ref<ChartColors>> {
  return useThemeColors({
    text: { variable: '--el-text-color-primary', fallback: '#303133' },
    line: { variable: '--el-border-color-lighter', fallback: '#ebeef5' },
    high: { variable: '--el-color-success-light-5', fallback: '#b3e19d' },
    mid: { variable: '--el-color-warning-light-5', fallback: '#f3d19e' },
    low: { variable: '--el-color-danger-light-5', fallback: '#fab6b6' },
    none: { variable: '--el-fill-color-dark', fallback: '#ebedf0' },
  })
}
