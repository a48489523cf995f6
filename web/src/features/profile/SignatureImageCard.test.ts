import { type VueWrapper } from '@vue/test-utils'
import { ElMessageBox } from 'element-plus'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../api/errors'
import { mountInApp, settle } from '../../app/testing'
import { deleteSignatureImage, fetchSignatureImage, saveSignatureImage } from '../../resources/signature/api'
import SignatureImageCard from './SignatureImageCard.vue'

vi.mock('../../resources/signature/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../resources/signature/api')>()),
  fetchSignatureImage: vi.fn(),
  saveSignatureImage: vi.fn(),
  deleteSignatureImage: vi.fn(),
}))

// The first bytes of a PNG: enough for the browser's type and size checks.
const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])
const keptImage = new Blob([PNG_BYTES], { type: 'image/png' })
let mounted: VueWrapper | null = null
let urls = 0

async function mountCard(): Promise<VueWrapper> {
  mounted = mountInApp(SignatureImageCard)
  await settle()
  return mounted
}

// pick chooses a file in the upload option's hidden file input.
async function pick(wrapper: VueWrapper, file: File): Promise<void> {
  wrapper.findComponent({ name: 'ElRadioGroup' }).vm.$emit('update:modelValue', 'upload')
  await settle()
  const input = wrapper.get<HTMLInputElement>('input[data-test="signature-image-file"]')
  Object.defineProperty(input.element, 'files', { value: [file], configurable: true })
  await input.trigger('change')
  await settle()
}

beforeEach(() => {
  urls = 0
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null) // jsdom draws nothing
  URL.createObjectURL = vi.fn(() => `blob:signature-${++urls}`)
  URL.revokeObjectURL = vi.fn()
  vi.mocked(fetchSignatureImage).mockReset().mockResolvedValue(keptImage)
  vi.mocked(saveSignatureImage).mockReset().mockResolvedValue()
  vi.mocked(deleteSignatureImage).mockReset().mockResolvedValue()
})

afterEach(() => {
  mounted?.unmount()
  mounted = null
  vi.restoreAllMocks()
  document.body.innerHTML = ''
})

describe('my signature image', () => {
  it('shows the kept image through an object URL, revoked when the card goes', async () => {
    const wrapper = await mountCard()
    expect(URL.createObjectURL).toHaveBeenCalledWith(keptImage)
    const image = wrapper.get('[data-test="signature-image-kept"]')
    expect(image.attributes('src')).toBe('blob:signature-1')
    expect(image.attributes('alt')).toBe('Your signature image')
    expect(wrapper.find('[data-test="signature-image-empty"]').exists()).toBe(false)
    wrapper.unmount()
    mounted = null
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:signature-1')
  })

  it('says when no image is kept yet (404)', async () => {
    vi.mocked(fetchSignatureImage).mockResolvedValue(null)
    const wrapper = await mountCard()
    expect(wrapper.get('[data-test="signature-image-empty"]').text()).toContain('No signature image kept yet')
    expect(wrapper.find('[data-test="signature-image-kept"]').exists()).toBe(false)
    expect(wrapper.find('[data-test="signature-image-delete"]').exists()).toBe(false)
    expect(URL.createObjectURL).not.toHaveBeenCalled()
  })

  it('saves an uploaded PNG as base64 and shows the new image', async () => {
    vi.mocked(fetchSignatureImage).mockResolvedValue(null)
    const wrapper = await mountCard()
    expect(wrapper.get('[data-test="signature-image-save"]').attributes('disabled')).toBeDefined()
    await pick(wrapper, new File([PNG_BYTES], 'signature.png', { type: 'image/png' }))
    expect(wrapper.get('[data-test="signature-image-file-name"]').text()).toBe('signature.png')
    expect(wrapper.find('[data-test="signature-image-chosen"]').exists()).toBe(true)
    vi.mocked(fetchSignatureImage).mockResolvedValue(keptImage)
    await wrapper.get('[data-test="signature-image-save"]').trigger('click')
    await settle()
    expect(saveSignatureImage).toHaveBeenCalledWith(btoa(String.fromCharCode(...PNG_BYTES)))
    expect(fetchSignatureImage).toHaveBeenCalledTimes(2)
    expect(wrapper.find('[data-test="signature-image-kept"]').exists()).toBe(true)
  })

  it('refuses a 600 KiB file before sending anything', async () => {
    const wrapper = await mountCard()
    await pick(wrapper, new File([new Uint8Array(600 * 1024)], 'scan.png', { type: 'image/png' }))
    expect(wrapper.get('[data-test="signature-image-problem"]').text()).toBe(
      '"scan.png" is 600 KiB; the image may be at most 512 KiB. Choose a smaller file.',
    )
    expect(wrapper.get('[data-test="signature-image-save"]').attributes('disabled')).toBeDefined()
    await wrapper.get('[data-test="signature-image-save"]').trigger('click')
    await settle()
    expect(saveSignatureImage).not.toHaveBeenCalled()
  })

  it('refuses a file that is not a PNG, JPEG or WebP image', async () => {
    const wrapper = await mountCard()
    await pick(wrapper, new File(['%PDF-1.7'], 'signature.pdf', { type: 'application/pdf' }))
    expect(wrapper.get('[data-test="signature-image-problem"]').text()).toContain('is not a PNG, JPEG or WebP image')
    expect(saveSignatureImage).not.toHaveBeenCalled()
  })

  it("shows the server's refusal of an image", async () => {
    vi.mocked(saveSignatureImage).mockRejectedValue(
      new ApiError(400, 'validation_failed', 'The image is larger than 2000×2000 pixels.', 'req-9'),
    )
    const wrapper = await mountCard()
    await pick(wrapper, new File([PNG_BYTES], 'huge.png', { type: 'image/png' }))
    await wrapper.get('[data-test="signature-image-save"]').trigger('click')
    await settle()
    const alert = wrapper.get('.el-alert')
    expect(alert.text()).toContain('The signature image could not be saved')
    expect(alert.text()).toContain('larger than 2000×2000 pixels')
    expect(alert.text()).toContain('req-9')
  })

  it('removes the image only after the confirmation', async () => {
    const confirm = vi.spyOn(ElMessageBox, 'confirm').mockRejectedValueOnce('cancel')
    const wrapper = await mountCard()
    await wrapper.get('[data-test="signature-image-delete"]').trigger('click')
    await settle()
    expect(confirm).toHaveBeenCalledTimes(1)
    expect(deleteSignatureImage).not.toHaveBeenCalled()

    confirm.mockResolvedValueOnce('confirm' as never)
    await wrapper.get('[data-test="signature-image-delete"]').trigger('click')
    await settle()
    expect(String(confirm.mock.calls[1]?.[0])).toContain('keep their copy')
    expect(deleteSignatureImage).toHaveBeenCalledTimes(1)
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:signature-1')
    expect(wrapper.get('[data-test="signature-image-empty"]').text()).toContain('No signature image kept yet')
  })
})
