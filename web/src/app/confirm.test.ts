import { mount } from '@vue/test-utils'
import { ElMessageBox } from 'element-plus'
import { describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { useConfirm, type Confirmation } from './confirm'
import { createAppI18n } from './i18n'

function confirmer(): (question: Confirmation) => Promise<boolean> {
  let confirm!: (question: Confirmation) => Promise<boolean>
  mount(defineComponent({ setup: () => ((confirm = useConfirm()), () => h('p')) }), { global: { plugins: [createAppI18n('en')] } })
  return confirm
}

describe('useConfirm', () => {
  it('asks with a warning box and says whether the viewer confirmed', async () => {
    const box = vi.spyOn(ElMessageBox, 'confirm').mockResolvedValueOnce('confirm' as never).mockRejectedValueOnce('cancel')
    const confirm = confirmer()
    expect(await confirm({ title: 'Delete?', body: 'It goes for good.', button: 'Delete', danger: true })).toBe(true)
    expect(box).toHaveBeenLastCalledWith('It goes for good.', 'Delete?', {
      type: 'warning',
      confirmButtonText: 'Delete',
      cancelButtonText: 'Cancel',
      confirmButtonClass: 'el-button--danger',
    })
    expect(await confirm({ title: 'Submit?', body: 'Reviewers see it.', button: 'Submit', tone: 'info' })).toBe(false)
    expect(box).toHaveBeenLastCalledWith('Reviewers see it.', 'Submit?', { type: 'info', confirmButtonText: 'Submit', cancelButtonText: 'Cancel' })
  })
})
