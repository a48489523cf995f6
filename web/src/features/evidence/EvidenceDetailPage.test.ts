import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { ApiError } from '../../api/errors'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'
import { signedInAssessee } from '../../app/session/fixtures'
import { useSessionStore } from '../../app/session/store'
import { attachment, AUTHOR, evidence, REVIEWER } from '../../resources/evidence/fixtures'
import type { Evidence } from '../../resources/evidence/types'
import { fetchEvidence, listAttachments, listEvidenceClaims, listLinks, listNotes } from './api'
import EvidenceDetailPage from './EvidenceDetailPage.vue'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  fetchEvidence: vi.fn(),
  listAttachments: vi.fn(),
  listLinks: vi.fn(),
  listEvidenceClaims: vi.fn(),
  listNotes: vi.fn(),
}))
vi.mock('../../resources/catalogue/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../resources/catalogue/api')>()),
  fetchTagOptions: vi.fn(async () => []),
}))

const EVERYTHING = ['evidence.view', 'evidence.create', 'evidence.edit', 'evidence.submit', 'evidence.review', 'evidence.delete', 'claims.view']

async function mountAs(userId: string, permissions: string[], record: Evidence) {
  vi.mocked(fetchEvidence).mockResolvedValue(record)
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale('en')
  useSessionStore().me = { user: { ...signedInAssessee.user, id: userId }, permissions }
  const Stub = { template: '<p>stub</p>' }
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/evidence', name: 'evidence', component: Stub },
      { path: '/evidence/:id', name: 'evidence-detail', component: EvidenceDetailPage },
      { path: '/assessments/:id', component: Stub },
    ],
  })
  await router.push('/evidence/ev_1')
  const wrapper = mount({ template: '<RouterView />' }, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n('en')] } })
  await flushPromises()
  return wrapper
}

const ACTIONS = ['approve', 'reject', 'submit', 'renew', 'edit', 'more']

function actionsOf(wrapper: Awaited<ReturnType<typeof mountAs>>): string[] {
  return ACTIONS.filter((name) => wrapper.find(`[data-test="action-${name}"]`).exists())
}

describe('EvidenceDetailPage', () => {
  beforeEach(() => {
    document.body.innerHTML = ''
    vi.mocked(fetchEvidence).mockReset()
    vi.mocked(listAttachments).mockReset().mockResolvedValue([attachment()])
    vi.mocked(listLinks).mockReset().mockResolvedValue([
      {
        assessmentId: 'as_1',
        assessmentTitle: 'Web shop 2026',
        assessmentState: 'in_progress',
        assessmentRequirementId: 'ar_1',
        requirementIdentifier: 'V1.2.3',
        requirementName: 'Encode output',
      },
    ])
    vi.mocked(listEvidenceClaims)
      .mockReset()
      .mockResolvedValue({ items: [{ id: 'cl_1', name: 'Output is encoded', assessmentId: 'as_1', relation: 'evidence' }], hasMore: false })
    vi.mocked(listNotes).mockReset().mockResolvedValue({
      items: [{ id: 'evn_1', evidenceId: 'ev_1', author: REVIEWER, kind: 'rejection', content: 'Add the scope page.', createdAt: '2026-01-11T09:00:00Z' }],
      hasMore: false,
    })
  })

  it('shows the descriptor, validity, files with their hash, links, citing claims and notes', async () => {
    const wrapper = await mountAs(AUTHOR.id, EVERYTHING, evidence({ validUntil: '2099-12-31' }))
    const facts = wrapper.get('[data-test="evidence-facts"]').text()
    expect(facts).toContain('Yearly external test')
    expect(facts).toContain('confidential')
    expect(facts).toContain('Ann Author')
    expect(facts).toContain('Not yet submitted')
    expect(wrapper.get('[data-test="attachment"]').text()).toContain('report.pdf')
    expect(wrapper.get('[data-test="hash"]').text()).toContain('aaaaaaaa…aaaaaa')
    expect(wrapper.get('[data-test="evidence-links"]').text()).toContain('V1.2.3')
    expect(wrapper.get('[data-test="claim-link"]').attributes('href')).toBe('/assessments/as_1?tab=claims&claim=cl_1')
    const note = wrapper.get('[data-test="note"]')
    expect(note.attributes('data-kind')).toBe('rejection')
    expect(note.text()).toContain('Rejection')
    wrapper.unmount()
  })

  it('shows the citing claims a page at a time', async () => {
    const citing = (id: string) => ({ id, name: `Claim ${id}`, assessmentId: 'as_1', relation: 'evidence' as const })
    vi.mocked(listEvidenceClaims)
      .mockReset()
      .mockResolvedValueOnce({ items: [citing('cl_1'), citing('cl_2')], nextCursor: 'c2', hasMore: true })
      .mockResolvedValueOnce({ items: [citing('cl_3')], hasMore: false })
    const wrapper = await mountAs(AUTHOR.id, EVERYTHING, evidence())
    const card = () => wrapper.get('[data-test="evidence-claims"]').element.closest('.el-card') as HTMLElement
    expect(wrapper.findAll('[data-test="claim-link"]')).toHaveLength(2)
    expect(listEvidenceClaims).toHaveBeenCalledWith('ev_1', undefined)
    const more = card().querySelector('.admin-page__more button') as HTMLButtonElement
    expect(more.textContent).toContain('Load more')
    more.click()
    await flushPromises()
    expect(listEvidenceClaims).toHaveBeenLastCalledWith('ev_1', 'c2')
    expect(wrapper.findAll('[data-test="claim-link"]').map((link) => link.text())).toEqual(['Claim cl_1', 'Claim cl_2', 'Claim cl_3'])
    expect(card().querySelector('.admin-page__more')).toBeNull()
    wrapper.unmount()
  })

  it('offers the author of evidence in progress editing and submitting, not reviewing', async () => {
    const wrapper = await mountAs(AUTHOR.id, EVERYTHING, evidence())
    expect(actionsOf(wrapper)).toEqual(['submit', 'edit', 'more'])
    expect(wrapper.find('[data-test="attachment-upload"]').exists()).toBe(true)
    expect(wrapper.find('[data-test="note-input"]').exists()).toBe(true)
    wrapper.unmount()
  })

  it('offers approve and reject to the assigned reviewer only', async () => {
    const inReview = evidence({ state: 'in_review', reviewer: REVIEWER })
    const reviewer = await mountAs(REVIEWER.id, EVERYTHING, inReview)
    expect(actionsOf(reviewer)).toEqual(['approve', 'reject', 'more'])
    expect(reviewer.get('[data-test="review-notice"]').text()).toContain('You are the reviewer')
    expect(reviewer.find('[data-test="attachment-upload"]').exists()).toBe(false)
    reviewer.unmount()

    const author = await mountAs(AUTHOR.id, EVERYTHING, inReview)
    expect(actionsOf(author)).toEqual(['more'])
    expect(author.get('[data-test="review-notice"]').text()).toContain('Waiting for review by Rey Reviewer')
    author.unmount()

    const readOnly = await mountAs(REVIEWER.id, ['evidence.view'], inReview)
    expect(actionsOf(readOnly)).toEqual([])
    readOnly.unmount()
  })

  it('shows why locked evidence refuses changes and offers no change at all', async () => {
    const wrapper = await mountAs(AUTHOR.id, EVERYTHING, evidence({ state: 'claimed', reviewer: REVIEWER, locked: 'claimed' }))
    expect(actionsOf(wrapper)).toEqual([])
    const notice = wrapper.get('[data-test="lock-notice"]')
    expect(notice.attributes('data-reason')).toBe('claimed')
    expect(notice.text()).toContain('not even by administrators')
    expect(wrapper.find('[data-test="attachment-upload"]').exists()).toBe(false)
    expect(wrapper.find('[data-test="attachment-delete"]').exists()).toBe(false)
    expect(wrapper.find('[data-test="unlink"]').exists()).toBe(false)
    expect(wrapper.find('[data-test="note-input"]').exists()).toBe(false)
    wrapper.unmount()

    const cited = await mountAs(AUTHOR.id, EVERYTHING, evidence({ locked: 'linked_to_claim' }))
    expect(cited.get('[data-test="lock-notice"]').text()).toContain('A claim cites it')
    expect(actionsOf(cited)).toEqual([])
    cited.unmount()
  })

  it('offers renewal of expired evidence and marks it expired', async () => {
    const wrapper = await mountAs(AUTHOR.id, EVERYTHING, evidence({ state: 'expired', validUntil: '2020-01-01' }))
    expect(actionsOf(wrapper)).toEqual(['renew', 'edit', 'more'])
    expect(wrapper.find('[data-test="expired-notice"]').exists()).toBe(true)
    expect(wrapper.find('[data-validity="expired"]').exists()).toBe(true)
    wrapper.unmount()
  })

  it('shows a not-found page for evidence it may not see', async () => {
    vi.mocked(fetchEvidence).mockRejectedValue(new ApiError(404, 'not_found', 'No such evidence.', 'r1'))
    const pinia = createPinia()
    setActivePinia(pinia)
    useSessionStore().me = { ...signedInAssessee, permissions: EVERYTHING }
    const router = createRouter({
      history: createMemoryHistory(),
      routes: [
        { path: '/evidence', name: 'evidence', component: { template: '<p />' } },
        { path: '/evidence/:id', name: 'evidence-detail', component: EvidenceDetailPage },
      ],
    })
    await router.push('/evidence/ev_gone')
    const wrapper = mount({ template: '<RouterView />' }, { global: { plugins: [pinia, router, createAppI18n('en')] } })
    await flushPromises()
    expect(wrapper.find('[data-test="evidence-not-found"]').exists()).toBe(true)
    wrapper.unmount()
  })
})
