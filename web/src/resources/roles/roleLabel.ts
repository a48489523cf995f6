import { useI18n } from 'vue-i18n'

/**
 * useRoleLabel returns a function that names a role for the viewer: built-in
 * roles have translated names, custom roles show as they were named.
 */
export function useRoleLabel(): (name: string) => string {
  const { t, te } = useI18n()
  return (name) => (te(`roles.${name}`) ? t(`roles.${name}`) : name)
}
