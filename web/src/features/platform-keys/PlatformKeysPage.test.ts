import { flushPromises, mount } from '@vue/test-utils'
import { ElMessageBox } from 'element-plus'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createAppI18n } from '../../app/i18n'
import { listPlatformKeys, rotatePlatformKey, type PlatformKey } from './api'
import PlatformKeysPage from './PlatformKeysPage.vue'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  listPlatformKeys: vi.fn(),
  rotatePlatformKey: vi.fn(),
}))

const active: PlatformKey = {
  id: 'pk_2', algorithm: 'Ed25519', keyId: 'NEWkeyThumbprint0000000000000000000000000000', publicKey: { kty: 'OKP', crv: 'Ed25519', x: 'x' },
  active: true, createdAt: '2026-03-02T09:00:00Z', retiredAt: null,
}
const retired: PlatformKey = { ...active, id: 'pk_1', keyId: 'OLDkeyThumbprint0000000000000000000000000000', active: false, retiredAt: '2026-03-02T09:00:00Z' }

async function mountPage() {
  setActivePinia(createPinia())
  const wrapper = mount(PlatformKeysPage, { attachTo: document.body, global: { plugins: [createAppI18n('en')] } })
  await flushPromises()
  return wrapper
}

describe('PlatformKeysPage', () => {
  beforeEach(() => {
    document.body.innerHTML = ''
    vi.mocked(listPlatformKeys).mockReset().mockResolvedValue([retired])
    vi.mocked(rotatePlatformKey).mockReset().mockResolvedValue(active)
  })

  it('lists the keys with their state and offers the public key set', async () => {
    const wrapper = await mountPage()
    expect(wrapper.text()).toContain('OLDkeyThumbprint')
    expect(wrapper.get('[data-test="platform-key-state"]').text()).toBe('Retired')
    expect((wrapper.get('input[data-test="jwks-url"]').element as HTMLInputElement).value).toBe(`${window.location.origin}/api/v1/platform-keys/jwks.json`)
    wrapper.unmount()
  })

  it('rotates only after the confirmation, then lists the new key', async () => {
    const confirm = vi.spyOn(ElMessageBox, 'confirm').mockRejectedValueOnce('cancel')
    const wrapper = await mountPage()
    await wrapper.get('[data-test="platform-key-rotate"]').trigger('click')
    await flushPromises()
    expect(confirm).toHaveBeenCalledTimes(1)
    expect(rotatePlatformKey).not.toHaveBeenCalled()

    confirm.mockResolvedValueOnce('confirm' as never)
    vi.mocked(listPlatformKeys).mockResolvedValue([active, retired])
    await wrapper.get('[data-test="platform-key-rotate"]').trigger('click')
    await flushPromises()
    expect(String(confirm.mock.calls[1]?.[0])).toContain('Documents sealed before keep verifying')
    expect(rotatePlatformKey).toHaveBeenCalledTimes(1)
    expect(wrapper.findAll('[data-test="platform-key-state"]').map((tag) => tag.text())).toEqual(['Active', 'Retired'])
    wrapper.unmount()
  })
})
