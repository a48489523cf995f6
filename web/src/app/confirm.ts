import { ElMessageBox } from 'element-plus'
import { useI18n } from 'vue-i18n'

/** Confirmation is what a confirmation box asks: its title, the question and the confirming button. */
export interface Confirmation {
  title: string
  body: string
  /** button names the step, e.g. "Delete". */
  button: string
  /** danger colours the button red: the step cannot be undone. */
  danger?: boolean
  /** tone is the box's icon: a warning (default) or, for a step that is easy to take back, information. */
  tone?: 'warning' | 'info'
}

/**
 * useConfirm returns confirm(), which asks before a step with a warning box (Cancel
 * and the named button) and resolves true when the viewer confirms, false when they
 * cancel or close the box.
 */
export function useConfirm(): (question: Confirmation) => Promise<boolean> {
  const { t } = useI18n()
  return async ({ title, body, button, danger = false, tone = 'warning' }) => {
    try {
      await ElMessageBox.confirm(body, title, {
        type: tone,
        confirmButtonText: button,
        cancelButtonText: t('common.cancel'),
        ...(danger ? { confirmButtonClass: 'el-button--danger' } : {}),
      })
      return true
    } catch {
      return false
    }
  }
}
