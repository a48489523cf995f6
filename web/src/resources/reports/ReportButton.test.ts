import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { api } from '../../api/client'
import { createAppI18n } from '../../app/i18n'
import { signedInAdmin } from '../../app/session/fixtures'
import { useSessionStore } from '../../app/session/store'
import { downloadReport, reportFilename } from './api'
import ReportButton from './ReportButton.vue'

vi.mock('../../api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/client')>()
  return { ...actual, api: { GET: vi.fn() } }
})

const pdf = new Blob(['%PDF-1.3'], { type: 'application/pdf' })
const answer = (status: number, data?: unknown, error?: unknown, disposition = '') =>
  Promise.resolve({ data, error, response: new Response(null, { status, headers: disposition ? { 'Content-Disposition': disposition } : {} }) }) as never

function mountButton(permissions: string[], kind: 'assessment' | 'attestation' = 'assessment') {
  const pinia = createPinia()
  setActivePinia(pinia)
  useSessionStore().me = { ...signedInAdmin, permissions }
  return mount(ReportButton, { attachTo: document.body, props: { kind, id: kind === 'assessment' ? 'as_1' : 'at_1' }, global: { plugins: [pinia, createAppI18n('de')] } })
}

describe('ReportButton', () => {
  const get = vi.mocked(api.GET)

  beforeEach(() => {
    document.body.innerHTML = ''
    get.mockReset()
    URL.createObjectURL = vi.fn(() => 'blob:report')
    URL.revokeObjectURL = vi.fn()
  })

  it('is offered only with export.pdf, in the viewer’s language', () => {
    expect(mountButton(['assessments.view']).find('[data-test="assessment-report"]').exists()).toBe(false)
    const button = mountButton(['assessments.view', 'export.pdf']).get('[data-test="assessment-report"]')
    expect(button.text()).toBe('PDF-Bericht')
  })

  it('downloads the attestation’s report under the server’s file name', async () => {
    get.mockReturnValueOnce(answer(200, pdf, undefined, `attachment; filename="attestation-x-report.pdf"; filename*=UTF-8''attestation-%CE%A5%CF%80-report.pdf`))
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
    const wrapper = mountButton(['export.pdf'], 'attestation')
    await wrapper.get('[data-test="attestation-report"]').trigger('click')
    await flushPromises()
    expect(get).toHaveBeenCalledWith('/api/v1/attestations/{id}/report.pdf', { params: { path: { id: 'at_1' } }, parseAs: 'blob' })
    expect(clicked).toHaveBeenCalledOnce()
    expect(URL.createObjectURL).toHaveBeenCalledWith(pdf)
    expect((clicked.mock.contexts[0] as HTMLAnchorElement).download).toBe('attestation-Υπ-report.pdf')
    clicked.mockRestore()
  })
})

describe('report calls', () => {
  it('reads the file name, UTF-8 first, and refuses an error answer', async () => {
    expect(reportFilename(`attachment; filename="a-report.pdf"`, 'x.pdf')).toBe('a-report.pdf')
    expect(reportFilename(`attachment; filename="a.pdf"; filename*=UTF-8''%E2%9C%93.pdf`, 'x.pdf')).toBe('✓.pdf')
    expect(reportFilename(`attachment; filename="a.pdf"; filename*=UTF-8''%E2.pdf`, 'x.pdf')).toBe('a.pdf')
    expect(reportFilename(null, 'x.pdf')).toBe('x.pdf')
    vi.mocked(api.GET).mockReturnValueOnce(answer(404, undefined, { error: 'not_found', message: 'Assessment not found.' }))
    await expect(downloadReport('assessment', 'as_9')).rejects.toMatchObject({ status: 404, message: 'Assessment not found.' })
  })
})
