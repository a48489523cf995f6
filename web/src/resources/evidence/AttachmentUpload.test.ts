import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'
import { useSetupStore } from '../../app/setup/store'
import AttachmentUpload from './AttachmentUpload.vue'
import { attachment } from './fixtures'

// FakeXHR stands in for XMLHttpRequest: each request is kept so a test can report
// progress, answer it or see it aborted.
class FakeXHR {
  static sent: FakeXHR[] = []
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null }
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  onabort: (() => void) | null = null
  ontimeout: (() => void) | null = null
  status = 0
  responseText = ''
  method = ''
  url = ''
  body: FormData | null = null
  headers: Record<string, string> = {}
  aborted = false
  open(method: string, url: string): void {
    this.method = method
    this.url = url
  }
  setRequestHeader(name: string, value: string): void {
    this.headers[name] = value
  }
  getResponseHeader(name: string): string | null {
    return name === 'X-Request-Id' ? 'req-1' : null
  }
  send(body: FormData): void {
    this.body = body
    FakeXHR.sent.push(this)
  }
  abort(): void {
    this.aborted = true
    this.onabort?.()
  }
  progress(loaded: number, total: number): void {
    this.upload.onprogress?.({ loaded, total, lengthComputable: true } as ProgressEvent)
  }
  answer(status: number, body: unknown): void {
    this.status = status
    this.responseText = JSON.stringify(body)
    this.onload?.()
  }
}

function file(name: string, size: number, type = 'application/pdf'): File {
  return new File([new Uint8Array(size)], name, { type })
}

function mountUpload(disabled = false, uploadMaxFileSize?: number) {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale('en')
  if (uploadMaxFileSize !== undefined) useSetupStore().status = { setupComplete: true, setupUrl: '/setup', passwordMinLength: 12, uploadMaxFileSize, starterStandardsBuiltIn: true }
  return mount(AttachmentUpload, {
    props: { evidenceId: 'ev_1', disabled },
    attachTo: document.body,
    global: { plugins: [pinia, createAppI18n('en')] },
  })
}

async function drop(wrapper: ReturnType<typeof mountUpload>, files: File[]): Promise<void> {
  await wrapper.get('[data-test="upload-zone"]').trigger('drop', { dataTransfer: { files, types: ['Files'] } })
  await flushPromises()
}

describe('AttachmentUpload', () => {
  beforeEach(() => {
    FakeXHR.sent = []
    vi.stubGlobal('XMLHttpRequest', FakeXHR)
    document.body.innerHTML = ''
  })
  afterEach(() => vi.unstubAllGlobals())

  it("names the server's upload limit and refuses a larger file before sending anything", async () => {
    const wrapper = mountUpload(false, 50 << 20)
    expect(wrapper.get('[data-test="upload-hint"]').text()).toContain('Up to 50 MB per file.')
    await drop(wrapper, [file('huge.pdf', 60 << 20), file('small.pdf', 10)])
    expect(FakeXHR.sent).toHaveLength(1)
    const [huge, small] = wrapper.findAll('[data-test="upload-item"]')
    expect(huge!.attributes('data-status')).toBe('failed')
    expect(huge!.get('[data-test="upload-error"]').text()).toContain('File too large')
    expect(huge!.text()).toContain('The file is 60 MB; the server accepts files up to 50 MB. Nothing was sent.')
    expect(small!.attributes('data-status')).toBe('uploading')
    wrapper.unmount()
  })

  it('posts the dropped file as multipart to the evidence, shows progress in percent and bytes, and reports the attachment', async () => {
    const wrapper = mountUpload()
    await drop(wrapper, [file('report.pdf', 4 * 1024 * 1024)])
    expect(FakeXHR.sent).toHaveLength(1)
    const xhr = FakeXHR.sent[0] as FakeXHR
    expect(xhr.method).toBe('POST')
    expect(xhr.url).toBe('/api/v1/evidence/ev_1/attachments')
    expect((xhr.body?.get('file') as File).name).toBe('report.pdf')

    xhr.progress(1024 * 1024, 4 * 1024 * 1024)
    await flushPromises()
    const item = wrapper.get('[data-test="upload-item"]')
    expect(item.attributes('data-status')).toBe('uploading')
    expect(item.get('[data-test="upload-progress"]').text()).toContain('25%')
    expect(item.text()).toContain('1 MB of 4 MB')

    const stored = attachment({ filename: 'report.pdf' })
    xhr.answer(201, stored)
    await flushPromises()
    expect(item.attributes('data-status')).toBe('done')
    expect(item.get('[data-test="upload-progress"]').text()).not.toContain('25%')
    expect(wrapper.emitted('uploaded')).toEqual([[stored]])
    wrapper.unmount()
  })

  it('sends queued files one after another', async () => {
    const wrapper = mountUpload()
    await drop(wrapper, [file('a.pdf', 10), file('b.pdf', 20)])
    expect(FakeXHR.sent).toHaveLength(1)
    const statuses = () => wrapper.findAll('[data-test="upload-item"]').map((item) => item.attributes('data-status'))
    expect(statuses()).toEqual(['uploading', 'queued'])
    ;(FakeXHR.sent[0] as FakeXHR).answer(201, attachment({ id: 'af_a' }))
    await flushPromises()
    expect(FakeXHR.sent).toHaveLength(2)
    expect(statuses()).toEqual(['done', 'uploading'])
    ;(FakeXHR.sent[1] as FakeXHR).answer(200, attachment({ id: 'af_b' }))
    await flushPromises()
    expect(statuses()).toEqual(['done', 'existing'])
    expect(wrapper.emitted('uploaded')).toHaveLength(2)
    wrapper.unmount()
  })

  it('cancels a running upload (aborting the request) and moves on to the next file', async () => {
    const wrapper = mountUpload()
    await drop(wrapper, [file('big.bin', 1000), file('next.pdf', 10)])
    const first = FakeXHR.sent[0] as FakeXHR
    first.progress(400, 1000)
    await flushPromises()
    await wrapper.findAll('[data-test="upload-cancel"]')[0]?.trigger('click')
    await flushPromises()
    expect(first.aborted).toBe(true)
    const items = wrapper.findAll('[data-test="upload-item"]')
    expect(items[0]?.attributes('data-status')).toBe('cancelled')
    expect(items[0]?.text()).toContain('Cancelled')
    expect(wrapper.find('[data-test="upload-error"]').exists()).toBe(false)
    expect(FakeXHR.sent).toHaveLength(2)
    expect(wrapper.emitted('uploaded')).toBeUndefined()
    wrapper.unmount()
  })

  it('drops a queued file on cancel without ever sending it', async () => {
    const wrapper = mountUpload()
    await drop(wrapper, [file('a.pdf', 10), file('b.pdf', 10)])
    await wrapper.findAll('[data-test="upload-cancel"]')[1]?.trigger('click')
    ;(FakeXHR.sent[0] as FakeXHR).answer(201, attachment())
    await flushPromises()
    expect(FakeXHR.sent).toHaveLength(1)
    expect(wrapper.findAll('[data-test="upload-item"]').map((item) => item.attributes('data-status'))).toEqual(['done', 'cancelled'])
    wrapper.unmount()
  })

  it('says why the server refused a file: too large (413) or a type it does not accept (415)', async () => {
    const wrapper = mountUpload()
    await drop(wrapper, [file('huge.iso', 100), file('page.html', 10, 'text/html')])
    ;(FakeXHR.sent[0] as FakeXHR).answer(413, { error: 'payload_too_large', message: 'The file is larger than 50 MB.', requestId: 'r1' })
    await flushPromises()
    ;(FakeXHR.sent[1] as FakeXHR).answer(415, {
      error: 'unsupported_media_type',
      message: 'This type of file is not accepted.',
      requestId: 'r2',
      details: [{ field: 'file', code: 'unsupported_type', message: 'text/html' }],
    })
    await flushPromises()
    const errors = wrapper.findAll('[data-test="upload-error"]').map((error) => error.text())
    expect(errors).toHaveLength(2)
    expect(errors[0]).toContain('File too large')
    expect(errors[0]).toContain('The file is larger than 50 MB.')
    expect(errors[1]).toContain('File type not accepted')
    expect(errors[1]).toContain('This type of file is not accepted. (text/html)')
    expect(wrapper.emitted('uploaded')).toBeUndefined()
    wrapper.unmount()
  })

  it('names the refused type once when the server\'s message already names it', async () => {
    const wrapper = mountUpload()
    await drop(wrapper, [file('tool', 10, 'application/octet-stream')])
    const message = 'Files of type application/x-executable cannot be attached (active content and executables are refused).'
    ;(FakeXHR.sent[0] as FakeXHR).answer(415, {
      error: 'unsupported_media_type', message, requestId: 'r3',
      details: [{ field: 'file', code: 'unsupported_type', message: 'application/x-executable' }],
    })
    await flushPromises()
    const text = wrapper.get('[data-test="upload-error"]').text()
    expect(text).toContain(message)
    expect(text.split('application/x-executable')).toHaveLength(2)
    wrapper.unmount()
  })

  it('explains a connection that broke off, and accepts nothing while disabled', async () => {
    const wrapper = mountUpload()
    await drop(wrapper, [file('a.pdf', 10)])
    ;(FakeXHR.sent[0] as FakeXHR).onerror?.()
    await flushPromises()
    expect(wrapper.get('[data-test="upload-error"]').text()).toContain('Connection lost')
    wrapper.unmount()

    const disabled = mountUpload(true)
    await drop(disabled, [file('b.pdf', 10)])
    expect(FakeXHR.sent).toHaveLength(1)
    expect(disabled.find('[data-test="upload-item"]').exists()).toBe(false)
    disabled.unmount()
  })
})
