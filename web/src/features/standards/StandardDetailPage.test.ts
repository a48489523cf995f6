import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { ElMessageBox } from 'element-plus'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { ApiError } from '../../api/client'
import { createAppI18n } from '../../app/i18n'
import { signedInAssessee, signedInPinia } from '../../app/session/fixtures'
import { approveStandard, createRequirement, fetchTree, retireStandard } from './api'
import { standard } from './fixtures'
import StandardDetailPage from './StandardDetailPage.vue'
import type { Standard } from './types'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  fetchTree: vi.fn(),
  approveStandard: vi.fn(),
  retireStandard: vi.fn(),
  createRequirement: vi.fn(),
  listTagOptions: vi.fn(async () => []),
  listVersions: vi.fn(async () => ({ items: [], hasMore: false })),
}))

const ME = signedInAssessee.user.id
let wrapper: VueWrapper | null = null

async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) {
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
}

async function mountWith(shown: Standard | ApiError, permissions: string[]): Promise<void> {
  if (shown instanceof ApiError) vi.mocked(fetchTree).mockRejectedValue(shown)
  else vi.mocked(fetchTree).mockResolvedValue({ standard: shown, requirements: [], levels: [] })
  const pinia = signedInPinia(signedInAssessee, ['standards.view', ...permissions])
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/standards', name: 'standards', component: { template: '<div />' } },
      { path: '/standards/:id', name: 'standard', component: StandardDetailPage, props: true },
    ],
  })
  await router.push('/standards/st_1')
  wrapper = mount(StandardDetailPage, { props: { id: 'st_1' }, attachTo: document.body, global: { plugins: [pinia, router, createAppI18n('en')] } })
  await settle()
}

const button = (test: string) => document.querySelector<HTMLButtonElement>(`[data-test="${test}"]`)
const text = () => document.body.textContent ?? ''

describe('StandardDetailPage', () => {
  beforeEach(() => {
    document.body.innerHTML = ''
    vi.spyOn(ElMessageBox, 'confirm').mockResolvedValue('confirm' as never)
  })
  afterEach(() => {
    wrapper?.unmount()
    wrapper = null
    vi.restoreAllMocks()
  })

  it('shows a duplicate identifier beside the identifier field, as the other field errors are', async () => {
    vi.mocked(createRequirement).mockRejectedValue(
      new ApiError(409, 'already_exists', 'The standard already has a requirement with this identifier.', 'req', [
        { field: 'identifier', code: 'taken', message: 'The standard already has a requirement with this identifier.' },
      ]),
    )
    await mountWith(standard(), ['standards.edit'])
    button('add-top-level')?.click()
    await settle()
    const dialog = document.querySelector<HTMLElement>('[data-test="requirement-dialog"]')!
    const fill = async (name: string, value: string) => {
      const input = dialog.querySelector<HTMLInputElement>(`input[name="${name}"]`)!
      input.value = value
      input.dispatchEvent(new Event('input'))
      await settle()
    }
    await fill('identifier', 'V1')
    await fill('name', 'Again')
    button('requirement-save')?.click()
    await settle()
    expect(createRequirement).toHaveBeenCalled()
    const identifierItem = dialog.querySelector('input[name="identifier"]')!.closest('.el-form-item')!
    await vi.waitFor(() =>
      expect(identifierItem.querySelector('.el-form-item__error')?.textContent).toContain('This standard has a requirement with this identifier already.'),
    )
    expect(document.querySelector('.el-message'), 'no toast').toBeNull()
    await fill('identifier', 'V1.9')
    await vi.waitFor(() => expect(identifierItem.querySelector('.el-form-item__error')).toBeNull())
  })

  it('shows the not-found state for an id that names no standard', async () => {
    await mountWith(new ApiError(404, 'not_found', 'No such standard.', 'req'), [])
    expect(document.querySelector('[data-test="standard-not-found"]')).not.toBeNull()
    expect(text()).toContain('Standard not found')
  })

  it('shows the header, the rejection reason, and only the actions the viewer may take', async () => {
    await mountWith(standard({ rejectionReason: 'Levels are missing.' }), ['standards.edit', 'standards.submit'])
    expect(text()).toContain('OWASP ASVS')
    expect(text()).toContain('Version 5.0.0')
    expect(document.querySelector('[data-test="rejection-reason"]')?.textContent).toContain('Levels are missing.')
    expect(button('submit-standard')).not.toBeNull()
    expect(button('edit-standard')).not.toBeNull()
    expect(button('approve-standard')).toBeNull()
  })

  it('counts requirements and levels in the singular and plural', async () => {
    await mountWith(standard({ requirementCount: 1, levelCount: 0 }), [])
    expect(text()).toContain('one requirement, no levels')
    expect(text()).not.toContain('1 requirements')
  })

  it('keeps a submitter from reviewing their own submission, and says why', async () => {
    await mountWith(standard({ state: 'in_review', submittedBy: ME }), ['standards.approve'])
    expect(button('approve-standard')?.disabled).toBe(true)
    expect(button('reject-standard')?.disabled).toBe(true)
    expect(document.querySelector('[data-test="own-submission"]')?.textContent).toContain('someone else has to review it')
  })

  it('explains a four-eyes refusal from the server', async () => {
    await mountWith(standard({ state: 'in_review', submittedBy: 'u_someone' }), ['standards.approve'])
    vi.mocked(approveStandard).mockRejectedValue(
      new ApiError(422, 'business_rule_violation', 'Someone other than the submitter must approve.', 'req', [{ code: 'four_eyes', message: 'no' }]),
    )
    button('approve-standard')!.click()
    await settle()
    expect(approveStandard).toHaveBeenCalledWith('st_1')
    expect(document.querySelector('[data-test="lifecycle-error"]')?.textContent).toContain('Someone else has to review this standard')
  })

  it('names what uses a standard it cannot retire, and retires it anyway on request', async () => {
    await mountWith(standard({ state: 'published' }), ['standards.approve'])
    vi.mocked(retireStandard)
      .mockRejectedValueOnce(
        new ApiError(422, 'business_rule_violation', 'The standard is used by 1 project(s) and 1 entity(ies).', 'req', [
          { field: 'force', code: 'in_use', message: 'used' },
          { field: 'projects', code: 'in_use', message: 'Web shop assessment' },
          { field: 'entities', code: 'in_use', message: 'Payments API' },
        ]),
      )
      .mockResolvedValueOnce(standard({ state: 'retired' }))
    button('more-actions')!.click()
    await settle()
    const retire = [...document.querySelectorAll<HTMLElement>('.el-dropdown-menu__item')].find((item) => item.textContent?.trim() === 'Retire')
    retire!.click()
    await settle()
    button('retire-confirm')!.click()
    await settle()
    const inUse = document.querySelector('[data-test="retire-in-use"]')?.textContent ?? ''
    expect(inUse).toContain('Web shop assessment')
    expect(inUse).toContain('Payments API')
    button('retire-force')!.click()
    await settle()
    expect(retireStandard).toHaveBeenLastCalledWith('st_1', true)
    expect(document.querySelector('.standard-header [data-state="retired"]')).not.toBeNull()
  })
})
