import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../api/errors'
import { createAppI18n } from '../../../app/i18n'
import { signedInAdmin } from '../../../app/session/fixtures'
import { useSessionStore } from '../../../app/session/store'
import { fetchSignatureImage } from '../../../resources/signature/api'
import { fetchHeldKeys, type HeldSigningKey } from '../../../resources/signature/keys'
import { freezeAttestation, signDigitally, signElectronically, signWithHeldKey } from '../api'
import { anAttestation, aSlot } from '../fixtures'
import { verifySigner, type JsfSigner } from '../jsf'
import SignDialog from './SignDialog.vue'

vi.mock('../../../resources/signature/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../resources/signature/api')>()),
  fetchSignatureImage: vi.fn(),
}))
vi.mock('../../../resources/signature/keys', () => ({ fetchHeldKeys: vi.fn() }))
vi.mock('../api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api')>()),
  freezeAttestation: vi.fn(),
  signElectronically: vi.fn(),
  signDigitally: vi.fn(),
  signWithHeldKey: vi.fn(),
}))

const OFFICE: HeldSigningKey = {
  id: 'uk_3',
  label: 'Office',
  algorithm: 'ES256',
  keyId: 'Zl1Q3kjFmXHBcm8nH0Zx5m2sGk7gXcT6vkDqkCwSb0E',
  publicKey: { kty: 'EC', crv: 'P-256', x: 'x', y: 'y' },
  createdAt: '2026-04-01T08:00:00Z',
  held: true,
  revokedAt: null,
}

const FROZEN = JSON.stringify({
  bomFormat: 'CycloneDX',
  specVersion: '1.7',
  declarations: { attestations: [{ summary: 'Payments', signature: { algorithm: 'Ed25519', value: 'x' } }], affirmation: { statement: 'We affirm.' } },
})

async function mountDialog(permissions = ['signatures.sign']) {
  const pinia = createPinia()
  setActivePinia(pinia)
  useSessionStore().me = { ...signedInAdmin, permissions }
  const wrapper = mount(SignDialog, {
    attachTo: document.body,
    props: { modelValue: false, attestation: anAttestation(), slotToSign: aSlot() },
    global: { plugins: [pinia, createAppI18n('en')] },
  })
  await wrapper.setProps({ modelValue: true })
  await flushPromises()
  return wrapper
}

describe('SignDialog', () => {
  beforeEach(() => {
    document.body.innerHTML = ''
    vi.mocked(freezeAttestation).mockReset().mockResolvedValue(FROZEN)
    vi.mocked(signElectronically).mockReset().mockResolvedValue(anAttestation({ state: 'signing' }))
    vi.mocked(signDigitally).mockReset().mockResolvedValue(anAttestation({ state: 'signing' }))
    vi.mocked(fetchSignatureImage).mockReset().mockResolvedValue(null)
    vi.mocked(fetchHeldKeys).mockReset().mockResolvedValue({ usable: [], available: true })
    vi.mocked(signWithHeldKey).mockReset().mockResolvedValue(anAttestation({ state: 'signing' }))
    URL.createObjectURL = vi.fn(() => 'blob:saved-signature')
    URL.revokeObjectURL = vi.fn()
  })

  it('signs electronically with the typed name, role and organisation of the slot, and warns that a draft freezes', async () => {
    const wrapper = await mountDialog()
    expect(document.querySelector('[data-test="freeze-warning"]')?.textContent).toContain('freezes its map, claims and statement')
    expect((document.querySelector('input[data-test="sign-name"]') as HTMLInputElement).value).toBe('Ada Admin')
    expect(document.querySelector('[data-test="typed-signature"]')?.textContent).toContain('Ada Admin')
    await wrapper.findComponent('[data-test="sign-submit"]').trigger('click')
    await flushPromises()
    expect(signElectronically).toHaveBeenCalledWith('at_1', 'sg_1', { name: 'Ada Admin', role: 'Lead assessor', organization: 'Acme Assurance' })
    expect(freezeAttestation).not.toHaveBeenCalled()
    expect(wrapper.emitted('signed')).toHaveLength(1)
    expect(wrapper.emitted('update:modelValue')?.at(-1)).toEqual([false])
  })

  it('signs with the signature image kept on the profile, sending useProfileImage and no image', async () => {
    vi.mocked(fetchSignatureImage).mockResolvedValue(new Blob(['png'], { type: 'image/png' }))
    const wrapper = await mountDialog(['signatures.sign', 'signatures.manage'])
    expect(fetchSignatureImage).toHaveBeenCalledTimes(1)
    expect(document.querySelector('[data-test="sign-saved"]')?.textContent).toContain('Use my saved signature image')
    wrapper.findComponent({ name: 'ElRadioGroup' }).vm.$emit('update:modelValue', 'saved')
    await flushPromises()
    expect(document.querySelector('[data-test="saved-signature"] img')?.getAttribute('src')).toBe('blob:saved-signature')
    await wrapper.findComponent('[data-test="sign-submit"]').trigger('click')
    await flushPromises()
    expect(signElectronically).toHaveBeenCalledWith('at_1', 'sg_1', {
      name: 'Ada Admin',
      role: 'Lead assessor',
      organization: 'Acme Assurance',
      useProfileImage: true,
    })
    wrapper.unmount()
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:saved-signature')
  })

  it('offers no saved image without signatures.manage, or when none is kept', async () => {
    await mountDialog()
    expect(fetchSignatureImage).not.toHaveBeenCalled()
    expect(document.querySelector('[data-test="sign-saved"]')).toBeNull()
    document.body.innerHTML = ''
    await mountDialog(['signatures.sign', 'signatures.manage'])
    expect(fetchSignatureImage).toHaveBeenCalledTimes(1)
    expect(document.querySelector('[data-test="sign-saved"]')).toBeNull()
  })

  it('refuses a drawn signature that is not drawn yet', async () => {
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null) // jsdom draws nothing
    const wrapper = await mountDialog()
    wrapper.findComponent({ name: 'ElRadioGroup' }).vm.$emit('update:modelValue', 'drawn')
    await flushPromises()
    expect(document.querySelector('[data-test="signature-canvas"]')).not.toBeNull()
    await wrapper.findComponent('[data-test="sign-submit"]').trigger('click')
    await flushPromises()
    expect(signElectronically).not.toHaveBeenCalled()
    expect(document.querySelector('.el-form-item.is-error label')?.textContent).toBe('Signature')
  })

  it('signs digitally with a key generated in the page: the signer posted verifies over the frozen statement', async () => {
    const wrapper = await mountDialog()
    wrapper.findComponent({ name: 'ElTabs' }).vm.$emit('update:modelValue', 'digital')
    await flushPromises()
    await wrapper.findComponent('[data-test="key-generate"]').trigger('click')
    await vi.waitFor(() => expect(document.querySelector('[data-test="key-thumbprint"]')?.textContent).toMatch(/^[A-Za-z0-9_-]{43}$/))
    await wrapper.findComponent('[data-test="sign-submit"]').trigger('click')
    await vi.waitFor(() => expect(signDigitally).toHaveBeenCalled())
    expect(freezeAttestation).toHaveBeenCalledWith('at_1')
    const [id, slotId, signer] = vi.mocked(signDigitally).mock.calls[0]! as [string, string, JsfSigner]
    expect([id, slotId]).toEqual(['at_1', 'sg_1'])
    expect(Object.keys(signer).sort()).toEqual(['algorithm', 'publicKey', 'value'])
    expect(signer.publicKey).not.toHaveProperty('d')
    expect(await verifySigner(FROZEN, signer)).toBe(true)
    expect(document.querySelector('[data-test="key-thumbprint"]')?.textContent).toBeTruthy()
  })

  it("shows the server's refusal of a digital signature", async () => {
    vi.mocked(signDigitally).mockRejectedValue(
      new ApiError(422, 'business_rule_violation', 'The signature does not verify over the frozen statement: bad value', 'r2', [
        { field: 'digital.signer', code: 'bad_signature', message: 'bad value' },
      ]),
    )
    const wrapper = await mountDialog()
    wrapper.findComponent({ name: 'ElTabs' }).vm.$emit('update:modelValue', 'digital')
    await flushPromises()
    await wrapper.findComponent('[data-test="key-generate"]').trigger('click')
    await vi.waitFor(() => expect(document.querySelector('[data-test="key-thumbprint"]')).not.toBeNull())
    await wrapper.findComponent('[data-test="sign-submit"]').trigger('click')
    await vi.waitFor(() => expect(document.body.textContent).toContain('does not verify over the frozen statement'))
    expect(wrapper.emitted('signed')).toBeUndefined()
  })

  it('signs with a key held by the service, the first choice when there is one, only once the password is given', async () => {
    vi.mocked(fetchHeldKeys).mockResolvedValue({ usable: [OFFICE], available: true })
    const wrapper = await mountDialog(['signatures.sign', 'signatures.manage'])
    wrapper.findComponent({ name: 'ElTabs' }).vm.$emit('update:modelValue', 'digital')
    await flushPromises()
    expect(document.querySelector('[data-test="sign-held"]')).not.toBeNull()
    expect(document.querySelector('[data-test="sign-submit"]')?.textContent).toContain('Sign with this key')
    await wrapper.findComponent('[data-test="sign-submit"]').trigger('click')
    await flushPromises()
    expect(signWithHeldKey).not.toHaveBeenCalled()
    await vi.waitFor(() => expect(document.body.textContent).toContain('Enter your password.'))
    const password = document.querySelector<HTMLInputElement>('input[data-test="sign-held-password"]')!
    expect(password.type).toBe('password')
    password.value = 'my password'
    password.dispatchEvent(new Event('input'))
    await flushPromises()
    await wrapper.findComponent('[data-test="sign-submit"]').trigger('click')
    await vi.waitFor(() => expect(signWithHeldKey).toHaveBeenCalledWith('at_1', 'sg_1', 'uk_3', 'my password'))
    expect(freezeAttestation).not.toHaveBeenCalled()
    expect(wrapper.emitted('signed')).toHaveLength(1)
  })

  it('says so under the field when the password is wrong, and empties it', async () => {
    vi.mocked(fetchHeldKeys).mockResolvedValue({ usable: [OFFICE], available: true })
    vi.mocked(signWithHeldKey).mockRejectedValue(
      new ApiError(400, 'validation_failed', 'The password is incorrect.', 'r3', [{ field: 'digital.password', code: 'incorrect' }]),
    )
    const wrapper = await mountDialog(['signatures.sign', 'signatures.manage'])
    wrapper.findComponent({ name: 'ElTabs' }).vm.$emit('update:modelValue', 'digital')
    await flushPromises()
    const password = document.querySelector<HTMLInputElement>('input[data-test="sign-held-password"]')!
    password.value = 'not it'
    password.dispatchEvent(new Event('input'))
    await flushPromises()
    await wrapper.findComponent('[data-test="sign-submit"]').trigger('click')
    await vi.waitFor(() => expect(document.querySelector('.el-form-item__error')?.textContent).toContain('The password is incorrect.'))
    expect(document.querySelector<HTMLInputElement>('input[data-test="sign-held-password"]')!.value).toBe('')
    expect(wrapper.emitted('signed')).toBeUndefined()
  })

  it('offers only the key of this browser without a key held by the service', async () => {
    const wrapper = await mountDialog(['signatures.sign', 'signatures.manage'])
    wrapper.findComponent({ name: 'ElTabs' }).vm.$emit('update:modelValue', 'digital')
    await flushPromises()
    expect(document.querySelector('[data-test="sign-key-source"]')).toBeNull()
    expect(document.querySelector('[data-test="no-held-keys"]')?.textContent).toContain('Generate one on your profile')
    expect(document.querySelector('[data-test="key-generate"]')).not.toBeNull()
  })

  it('sends nobody to generate a key held by the service on a server that cannot hold one', async () => {
    vi.mocked(fetchHeldKeys).mockResolvedValue({ usable: [], available: false })
    const wrapper = await mountDialog(['signatures.sign', 'signatures.manage'])
    wrapper.findComponent({ name: 'ElTabs' }).vm.$emit('update:modelValue', 'digital')
    await flushPromises()
    expect(document.querySelector('[data-test="no-held-keys"]')).toBeNull()
    expect(document.body.textContent).not.toContain('Generate one on your profile')
    expect(document.querySelector('[data-test="key-generate"]')).not.toBeNull()
  })
})
