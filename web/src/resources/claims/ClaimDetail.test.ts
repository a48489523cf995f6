import { flushPromises, mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { createAppI18n } from '../../app/i18n'
import { signedInAssessee, signedInPinia } from '../../app/session/fixtures'
import ClaimDetail from './ClaimDetail.vue'
import { aClaim } from './fixtures'

const claim = aClaim()

async function show(readOnly: boolean) {
  const pinia = signedInPinia(signedInAssessee, ['claims.view', 'claims.edit'])
  mount(ClaimDetail, {
    props: { modelValue: true, claim, readOnly },
    attachTo: document.body,
    global: { plugins: [pinia, createAppI18n('en')] },
  })
  await flushPromises()
}

describe('ClaimDetail', () => {
  it('offers edit and delete to holders of claims.edit while the assessment takes changes', async () => {
    await show(false)
    expect(document.body.querySelector('[data-test="claim-edit"]')).not.toBeNull()
    expect(document.body.querySelector('[data-test="claim-delete"]')).not.toBeNull()
    document.body.innerHTML = ''
  })

  it('offers neither on a read-only assessment (complete, archived, cancelled)', async () => {
    await show(true)
    expect(document.body.querySelector('[data-test="claim-kind"]')).not.toBeNull()
    expect(document.body.querySelector('[data-test="claim-edit"]')).toBeNull()
    expect(document.body.querySelector('[data-test="claim-delete"]')).toBeNull()
    document.body.innerHTML = ''
  })
})
