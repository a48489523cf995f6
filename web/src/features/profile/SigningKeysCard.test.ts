import { type VueWrapper } from '@vue/test-utils'
import { ElMessageBox } from 'element-plus'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../api/errors'
import { mountInApp, settle } from '../../app/testing'
import { addSigningKey, deleteSigningKey, generateHeldSigningKey, listSigningKeys, revokeSigningKey, type SigningKey } from './api'
import SigningKeysCard from './SigningKeysCard.vue'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  listSigningKeys: vi.fn(),
  addSigningKey: vi.fn(),
  deleteSigningKey: vi.fn(),
  generateHeldSigningKey: vi.fn(),
  revokeSigningKey: vi.fn(),
}))

const ed25519Jwk = { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }
const laptop: SigningKey = {
  id: 'sk_2',
  label: 'Laptop',
  algorithm: 'Ed25519',
  keyId: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
  publicKey: ed25519Jwk,
  createdAt: '2026-03-02T09:00:00Z',
  held: false,
  revokedAt: null,
}
const token: SigningKey = {
  id: 'sk_1',
  label: 'Hardware token',
  algorithm: 'ES384',
  keyId: 'Q3JAH0C8aEB7ls0EfuPyoVWLgdXSmHwHgxoU9tX4Ny0',
  publicKey: { kty: 'EC', crv: 'P-384', x: 'x', y: 'y' },
  createdAt: '2026-01-15T16:30:00Z',
  held: false,
  revokedAt: null,
}
const office: SigningKey = {
  id: 'uk_3',
  label: 'Office',
  algorithm: 'ES256',
  keyId: 'Zl1Q3kjFmXHBcm8nH0Zx5m2sGk7gXcT6vkDqkCwSb0E',
  publicKey: { kty: 'EC', crv: 'P-256', x: 'x', y: 'y' },
  createdAt: '2026-04-01T08:00:00Z',
  held: true,
  revokedAt: null,
}
const retired: SigningKey = { ...office, id: 'uk_4', label: 'Old office', revokedAt: '2026-04-02T10:00:00Z' }
let mounted: VueWrapper | null = null

async function mountCard(): Promise<VueWrapper> {
  mounted = mountInApp(SigningKeysCard)
  await settle()
  return mounted
}

// openDialog opens "Add key"; the dialog is teleported to <body>.
async function openDialog(wrapper: VueWrapper): Promise<HTMLElement> {
  await wrapper.get('[data-test="signing-key-add"]').trigger('click')
  await settle()
  const dialog = document.body.querySelector<HTMLElement>('[data-test="add-signing-key"]')
  if (!dialog) throw new Error('no dialog')
  return dialog
}

async function type(dialog: HTMLElement, selector: string, value: string): Promise<void> {
  const field = dialog.querySelector<HTMLInputElement | HTMLTextAreaElement>(selector)
  if (!field) throw new Error(`no field ${selector}`)
  field.value = value
  field.dispatchEvent(new Event('input'))
  await settle()
}

async function submit(dialog: HTMLElement): Promise<void> {
  dialog.querySelector<HTMLButtonElement>('[data-test="signing-key-submit"]')?.click()
  await settle()
}

beforeEach(() => {
  vi.mocked(listSigningKeys).mockReset().mockResolvedValue({ keys: [laptop, token], heldKeysAvailable: true })
  vi.mocked(addSigningKey).mockReset()
  vi.mocked(deleteSigningKey).mockReset()
  vi.mocked(generateHeldSigningKey).mockReset()
  vi.mocked(revokeSigningKey).mockReset()
})

afterEach(() => {
  mounted?.unmount()
  mounted = null
  vi.restoreAllMocks()
  document.body.innerHTML = ''
})

describe('my signing keys', () => {
  it('lists each key with its label, algorithm, thumbprint and when it was added', async () => {
    const wrapper = await mountCard()
    const rows = wrapper.findAll('[data-test="signing-key"]')
    expect(rows).toHaveLength(2)
    expect(rows.map((row) => row.get('[data-test="signing-key-label"]').text())).toEqual(['Laptop', 'Hardware token'])
    expect(rows.map((row) => row.get('[data-test="signing-key-algorithm"]').text())).toEqual(['Ed25519', 'ES384'])
    expect(rows[0]?.get('[data-test="signing-key-thumbprint"]').text()).toBe(laptop.keyId)
    const added = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(laptop.createdAt))
    expect(rows[0]?.get('[data-test="signing-key-created"]').text()).toBe(`Added ${added}`)
    expect(rows[0]?.get('[data-test="signing-key-copy"]').attributes('aria-label')).toBe('Copy the thumbprint of Laptop')
  })

  it('says when there is no key yet', async () => {
    vi.mocked(listSigningKeys).mockResolvedValue({ keys: [], heldKeysAvailable: true })
    const wrapper = await mountCard()
    expect(wrapper.get('[data-test="signing-keys-empty"]').text()).toContain('No signing keys yet')
  })

  it('adds an Ed25519 JWK with the algorithm derived from the key', async () => {
    const added: SigningKey = { ...laptop, id: 'sk_3', label: 'Desk' }
    vi.mocked(addSigningKey).mockResolvedValue(added)
    const wrapper = await mountCard()
    const dialog = await openDialog(wrapper)
    await type(dialog, 'input[name="label"]', '  Desk ')
    await type(dialog, 'textarea[name="publicKey"]', JSON.stringify(ed25519Jwk, null, 2))
    expect(dialog.querySelector('[data-test="signing-key-algorithm"]')?.textContent).toContain('Ed25519')
    await submit(dialog)
    expect(addSigningKey).toHaveBeenCalledWith({ label: 'Desk', algorithm: 'Ed25519', publicKey: ed25519Jwk })
    expect(listSigningKeys).toHaveBeenCalledTimes(2)
  })

  it('refuses a JWK with a private member before sending anything', async () => {
    const wrapper = await mountCard()
    const dialog = await openDialog(wrapper)
    await type(dialog, 'input[name="label"]', 'Leaky')
    await type(dialog, 'textarea[name="publicKey"]', JSON.stringify({ ...ed25519Jwk, d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A' }))
    await submit(dialog)
    expect(addSigningKey).not.toHaveBeenCalled()
    // Element Plus shows a field's error 100 ms after the field turns invalid.
    await vi.waitFor(() =>
      expect(dialog.querySelector('.el-form-item__error')?.textContent).toContain('This JWK contains a private key (members: d).'),
    )
  })

  it('shows why the server refused the key', async () => {
    vi.mocked(addSigningKey).mockRejectedValue(new ApiError(409, 'already_exists', 'This key is on your profile already.', 'req-7'))
    const wrapper = await mountCard()
    const dialog = await openDialog(wrapper)
    await type(dialog, 'input[name="label"]', 'Again')
    await type(dialog, 'textarea[name="publicKey"]', JSON.stringify(ed25519Jwk))
    await submit(dialog)
    const alert = dialog.querySelector('.el-alert')
    expect(alert?.textContent).toContain('The key could not be added')
    expect(alert?.textContent).toContain('This key is on your profile already.')
    expect(alert?.textContent).toContain('req-7')
  })

  it('removes a key only after the confirmation, which says signed documents stay valid', async () => {
    const confirm = vi.spyOn(ElMessageBox, 'confirm').mockRejectedValueOnce('cancel')
    vi.mocked(deleteSigningKey).mockResolvedValue()
    const wrapper = await mountCard()
    const remove = () => wrapper.findAll('[data-test="signing-key-delete"]')[1]!.trigger('click')
    await remove()
    await settle()
    expect(confirm).toHaveBeenCalledTimes(1)
    expect(deleteSigningKey).not.toHaveBeenCalled()

    confirm.mockResolvedValueOnce('confirm' as never)
    vi.mocked(listSigningKeys).mockResolvedValue({ keys: [laptop], heldKeysAvailable: true })
    await remove()
    await settle()
    expect(String(confirm.mock.calls[1]?.[0])).toContain('Documents already signed with it stay valid')
    expect(deleteSigningKey).toHaveBeenCalledWith('sk_1')
    expect(wrapper.findAll('[data-test="signing-key"]')).toHaveLength(1)
  })

  it('marks keys held by the service, revoked ones with the date, and offers Revoke instead of Remove for held keys', async () => {
    vi.mocked(listSigningKeys).mockResolvedValue({ keys: [office, retired, laptop], heldKeysAvailable: true })
    const wrapper = await mountCard()
    const rows = wrapper.findAll('[data-test="signing-key"]')
    expect(rows.map((row) => row.find('[data-test="signing-key-held"]').exists())).toEqual([true, true, false])
    const revokedOn = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(retired.revokedAt!))
    expect(rows[1]?.get('[data-test="signing-key-revoked"]').text()).toBe(`Revoked ${revokedOn}`)
    expect(rows[0]?.get('[data-test="signing-key-held"]').text()).toBe('Held by the service')
    expect(rows.map((row) => row.find('[data-test="signing-key-revoke"]').exists())).toEqual([true, false, false])
    expect(rows.map((row) => row.find('[data-test="signing-key-delete"]').exists())).toEqual([false, false, true])
  })

  it('revokes a held key only after the confirmation, which says the private key is destroyed', async () => {
    const confirm = vi.spyOn(ElMessageBox, 'confirm').mockRejectedValueOnce('cancel')
    vi.mocked(listSigningKeys).mockResolvedValue({ keys: [office], heldKeysAvailable: true })
    vi.mocked(revokeSigningKey).mockResolvedValue({ ...office, revokedAt: '2026-04-03T10:00:00Z' })
    const wrapper = await mountCard()
    await wrapper.get('[data-test="signing-key-revoke"]').trigger('click')
    await settle()
    expect(revokeSigningKey).not.toHaveBeenCalled()
    confirm.mockResolvedValueOnce('confirm' as never)
    vi.mocked(listSigningKeys).mockResolvedValue({ keys: [{ ...office, revokedAt: '2026-04-03T10:00:00Z' }], heldKeysAvailable: true })
    await wrapper.get('[data-test="signing-key-revoke"]').trigger('click')
    await settle()
    expect(String(confirm.mock.calls[1]?.[0])).toContain('is destroyed')
    expect(revokeSigningKey).toHaveBeenCalledWith('uk_3')
    expect(wrapper.find('[data-test="signing-key-revoke"]').exists()).toBe(false)
    expect(wrapper.find('[data-test="signing-key-revoked"]').exists()).toBe(true)
  })

  it('generates a key held by the service with the label and the algorithm chosen', async () => {
    vi.mocked(generateHeldSigningKey).mockResolvedValue(office)
    const wrapper = await mountCard()
    await wrapper.get('[data-test="held-key-generate"]').trigger('click')
    await settle()
    const dialog = document.body.querySelector<HTMLElement>('[data-test="generate-held-key"]')!
    dialog.querySelector<HTMLButtonElement>('[data-test="held-key-submit"]')?.click()
    await settle()
    expect(generateHeldSigningKey).not.toHaveBeenCalled()
    await type(dialog, 'input[name="label"]', '  Office ')
    dialog.querySelector<HTMLElement>('[data-test="held-key-es256"] input')?.click()
    await settle()
    dialog.querySelector<HTMLButtonElement>('[data-test="held-key-submit"]')?.click()
    await settle()
    expect(generateHeldSigningKey).toHaveBeenCalledWith({ label: 'Office', algorithm: 'ES256' })
    expect(listSigningKeys).toHaveBeenCalledTimes(2)
  })

  it('explains in words that a server without encryption at rest keeps no key', async () => {
    vi.mocked(generateHeldSigningKey).mockRejectedValue(
      new ApiError(409, 'conflict', 'The service runs without a master encryption key.', 'req-9', [{ code: 'encryption_required' }]),
    )
    const wrapper = await mountCard()
    await wrapper.get('[data-test="held-key-generate"]').trigger('click')
    await settle()
    const dialog = document.body.querySelector<HTMLElement>('[data-test="generate-held-key"]')!
    await type(dialog, 'input[name="label"]', 'Office')
    dialog.querySelector<HTMLButtonElement>('[data-test="held-key-submit"]')?.click()
    await settle()
    expect(dialog.querySelector('[data-test="held-key-needs-encryption"]')?.textContent).toContain('runs without encryption at rest')
  })

  it('offers no key held by a server that cannot hold one, and says why', async () => {
    vi.mocked(listSigningKeys).mockResolvedValue({ keys: [laptop], heldKeysAvailable: false })
    const wrapper = await mountCard()
    const button = wrapper.get('[data-test="held-key-generate"]')
    expect(button.attributes('disabled')).toBeDefined()
    expect(button.attributes('aria-describedby')).toBe('held-key-unavailable')
    expect(wrapper.get('[data-test="held-key-unavailable"]').text()).toContain('runs without encryption at rest')
    await button.trigger('click')
    await settle()
    expect(document.body.querySelector('[data-test="generate-held-key"]')).toBeNull()
  })

  it('offers a key held by a server that can hold one', async () => {
    const wrapper = await mountCard()
    expect(wrapper.get('[data-test="held-key-generate"]').attributes('disabled')).toBeUndefined()
    expect(wrapper.find('[data-test="held-key-unavailable"]').exists()).toBe(false)
  })
})
