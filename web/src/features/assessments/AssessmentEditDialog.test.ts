import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../api/errors'
import { createAppI18n } from '../../app/i18n'
import { fetchAssessment, updateAssessment } from './api'
import AssessmentEditDialog from './AssessmentEditDialog.vue'
import { anAssessment } from './fixtures'
import type { Assessment } from './types'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  updateAssessment: vi.fn(),
  fetchAssessment: vi.fn(),
  fetchProjectChoice: vi.fn(async () => ({ id: 'pr_1', name: 'Shop 2026', standardIds: [] })),
  searchProjects: vi.fn(async () => []),
}))
vi.mock('../../resources/catalogue/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../resources/catalogue/api')>()),
  fetchTagOptions: vi.fn(async () => []),
  fetchPublishedStandards: vi.fn(async () => [{ id: 'st_asvs', name: 'OWASP ASVS', standardVersion: '5.0.0' }]),
  fetchStandardLevels: vi.fn(async () => []),
}))

let wrapper: VueWrapper | undefined

async function mountDialog(assessment: Assessment) {
  wrapper = mount(AssessmentEditDialog, {
    attachTo: document.body,
    props: { modelValue: true, assessment },
    global: { plugins: [createAppI18n('en')] },
  })
  await flushPromises()
  return wrapper
}

const titleInput = () => document.querySelector<HTMLInputElement>('[data-test="assessment-edit-dialog"] input[name="title"]')!
const saveButton = () => [...document.querySelectorAll<HTMLButtonElement>('.el-dialog__footer button')].find((b) => b.textContent?.includes('Save'))!

async function typeTitle(value: string) {
  titleInput().value = value
  titleInput().dispatchEvent(new Event('input'))
  await flushPromises()
}

describe('AssessmentEditDialog', () => {
  beforeEach(() => {
    wrapper?.unmount()
    document.body.innerHTML = ''
    vi.mocked(updateAssessment).mockReset()
    vi.mocked(fetchAssessment).mockReset()
  })

  it('sends only what changed, with the version read', async () => {
    const saved = anAssessment({ title: 'Shop review 2026', version: 5 })
    vi.mocked(updateAssessment).mockResolvedValue(saved)
    await mountDialog(anAssessment())
    await typeTitle('Shop review 2026')
    saveButton().click()
    await flushPromises()
    expect(updateAssessment).toHaveBeenCalledWith('as_1', { version: 4, title: 'Shop review 2026' })
    expect(wrapper!.emitted('saved')).toEqual([[saved]])
    expect(wrapper!.emitted('update:modelValue')).toEqual([[false]])
  })

  it('edits the standards before the start only', async () => {
    await mountDialog(anAssessment())
    expect(document.querySelector('[data-test="standards-fixed"]')).not.toBeNull()
    expect(document.querySelector('[data-test="standard-rows"]')).toBeNull()
    wrapper!.unmount()
    document.body.innerHTML = ''
    await mountDialog(anAssessment({ state: 'pending', allowedStates: ['in_progress'] }))
    expect(document.querySelector('[data-test="standard-rows"]')).not.toBeNull()
    expect(document.querySelector('[data-test="standards-fixed"]')).toBeNull()
  })

  it('shows a version conflict and reloads the assessment', async () => {
    vi.mocked(updateAssessment).mockRejectedValue(new ApiError(409, 'version_conflict', 'stale', 'req_1'))
    const fresh = anAssessment({ title: 'Changed elsewhere', version: 9 })
    vi.mocked(fetchAssessment).mockResolvedValue(fresh)
    await mountDialog(anAssessment())
    await typeTitle('Mine')
    saveButton().click()
    await flushPromises()
    expect(document.body.textContent).toContain('Someone else has changed this assessment')
    expect(saveButton().disabled).toBe(true)
    const reload = [...document.querySelectorAll('button')].find((b) => b.textContent?.includes('Reload'))!
    reload.click()
    await flushPromises()
    expect(fetchAssessment).toHaveBeenCalledWith('as_1')
    expect(wrapper!.emitted('saved')).toEqual([[fresh]])
    expect(titleInput().value).toBe('Changed elsewhere')
    expect(document.body.textContent).not.toContain('Someone else has changed this assessment')
  })
})
