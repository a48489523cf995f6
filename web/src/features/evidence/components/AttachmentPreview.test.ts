import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createAppI18n } from '../../../app/i18n'
import { attachment } from '../../../resources/evidence/fixtures'
import type { Attachment } from '../../../resources/evidence/types'
import { fetchAttachmentContent } from '../api'
import AttachmentPreview from './AttachmentPreview.vue'

vi.mock('../api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api')>()),
  fetchAttachmentContent: vi.fn(),
}))

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
}

async function show(file: Attachment, body: BlobPart) {
  vi.mocked(fetchAttachmentContent).mockResolvedValue(new Blob([body]))
  setActivePinia(createPinia())
  const wrapper = mount(AttachmentPreview, {
    props: { modelValue: true, attachment: file },
    attachTo: document.body,
    global: { plugins: [createAppI18n('en')] },
  })
  await settle()
  return wrapper
}

describe('AttachmentPreview', () => {
  const created: Blob[] = []
  beforeEach(() => {
    created.length = 0
    document.body.innerHTML = ''
    vi.mocked(fetchAttachmentContent).mockReset()
    URL.createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob)
      return `blob:preview/${created.length}`
    })
    URL.revokeObjectURL = vi.fn()
  })
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('shows an image in <img> from an object URL of the fetched bytes', async () => {
    const wrapper = await show(attachment({ filename: 'shot.png', contentType: 'image/png' }), 'png-bytes')
    const img = document.querySelector<HTMLImageElement>('[data-test="preview-image"]')
    expect(img?.getAttribute('src')).toBe('blob:preview/1')
    expect(created[0]?.type).toBe('image/png')
    expect(document.querySelector('[data-test="preview-pdf"]')).toBeNull()
    expect(fetchAttachmentContent).toHaveBeenCalledWith('ev_1', 'af_1', expect.any(AbortSignal))
    wrapper.unmount()
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:preview/1')
  })

  it('shows a PDF in a frame whose blob is typed application/pdf, titled by the file name, not the blob id', async () => {
    const wrapper = await show(attachment({ filename: 'threat-model.pdf' }), '%PDF-1.7')
    const frame = document.querySelector<HTMLIFrameElement>('[data-test="preview-pdf"]')
    // The viewer's toolbar would title the document "6a69e99c-…" (its blob URL): hidden.
    expect(frame?.getAttribute('src')).toBe('blob:preview/1#toolbar=0')
    expect(frame?.getAttribute('title')).toBe('threat-model.pdf')
    expect(document.querySelector('[data-test="attachment-preview"] .el-dialog__title')?.textContent).toBe('threat-model.pdf')
    expect(created[0]?.type).toBe('application/pdf')
    wrapper.unmount()
  })

  it('shows JSON and CSV as text in <pre>, never as HTML', async () => {
    const json = await show(attachment({ filename: 'bom.json', contentType: 'application/json' }), '{"bomFormat":"<b>CycloneDX</b>"}')
    const pre = document.querySelector('[data-test="preview-text"]')
    expect(pre?.textContent).toBe('{\n  "bomFormat": "<b>CycloneDX</b>"\n}')
    expect(pre?.querySelector('b')).toBeNull()
    expect(URL.createObjectURL).not.toHaveBeenCalled()
    json.unmount()
    document.body.innerHTML = ''

    const csv = await show(attachment({ filename: 'data.csv', contentType: 'text/csv' }), 'a,b\n1,2')
    expect(document.querySelector('[data-test="preview-text"]')?.textContent).toBe('a,b\n1,2')
    csv.unmount()
  })

  it('offers only a download for other types, without fetching the bytes', async () => {
    const wrapper = await show(attachment({ filename: 'logs.zip', contentType: 'application/zip' }), 'zip')
    expect(fetchAttachmentContent).not.toHaveBeenCalled()
    expect(document.body.textContent).toContain('cannot be shown here')
    expect(document.querySelector('[data-test="preview-download"]')?.getAttribute('href')).toBe('/api/v1/evidence/ev_1/attachments/af_1/content')
    wrapper.unmount()
  })
})
