import type { FormItemRule } from 'element-plus'

/**
 * problemRule adapts a check that names a problem (or null) to Element Plus'
 * validator, translating the verdict with `messages` when the rule runs, so the
 * text follows the current language.
 */
export function problemRule<P extends string>(
  check: () => P | null,
  messages: Partial<Record<P, () => string>>,
): FormItemRule {
  return {
    trigger: ['blur', 'change'],
    validator: (_rule, _value, callback) => {
      const problem = check()
      const message = problem ? messages[problem] : undefined
      callback(message ? new Error(message()) : undefined)
    },
  }
}

/**
 * requiredTextRule checks a text that must not be blank and may be at most `max`
 * characters long (as people count them, after trimming).
 */
export function requiredTextRule(text: () => string, max: number, messages: { required: () => string; length: () => string }): FormItemRule {
  return problemRule(() => {
    const trimmed = text().trim()
    if (trimmed === '') return 'required'
    return [...trimmed].length > max ? 'length' : null
  }, messages)
}
