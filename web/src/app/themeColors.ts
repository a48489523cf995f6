import { onScopeDispose, shallowRef, type Ref } from 'vue'

/** CssColorSpec names a CSS custom property and the colour to use when it is not set. */
export interface CssColorSpec {
  variable: string
  fallback: string
}

/**
 * readCssColors reads custom properties (Element Plus' `--el-*` variables) from the
 * document root. Canvas-drawn charts cannot use `var(...)`, so they paint with these.
 */
export function readCssColors<K extends string>(specs: Record<K, CssColorSpec>): Record<K, string> {
  const style = getComputedStyle(document.documentElement)
  const out = {} as Record<K, string>
  for (const key of Object.keys(specs) as K[]) {
    const spec = specs[key]
    out[key] = style.getPropertyValue(spec.variable).trim() || spec.fallback
  }
  return out
}

/**
 * useThemeColors keeps readCssColors up to date: the theme toggle switches the
 * `dark` class on <html> (see preferences.ts), and every change of the root's class
 * or style reads the colours again, so a chart re-renders in the new theme.
 */
export function useThemeColors<K extends string>(specs: Record<K, CssColorSpec>): Readonly<Ref<Record<K, string>>> {
  const colors = shallowRef(readCssColors(specs))
  const observer = new MutationObserver(() => {
    const next = readCssColors(specs)
    const changed = (Object.keys(next) as K[]).some((key) => next[key] !== colors.value[key])
    if (changed) colors.value = next
  })
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class', 'style'] })
  onScopeDispose(() => observer.disconnect())
  return colors
}
