import { flushPromises, mount } from '@vue/test-utils'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createAppI18n } from '../../../app/i18n'
import { api } from '../../../api/client'
import { updateTeam } from '../api'
import { ada, anAssessment, bob } from '../fixtures'
import TeamTab from './TeamTab.vue'

vi.mock('../../../api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../api/client')>()
  return { ...actual, api: { GET: vi.fn() } }
})
vi.mock('../api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api')>()),
  updateTeam: vi.fn(),
}))

const carol = { id: 'us_carol', username: 'carol', displayName: 'Carol Checker' }

describe('TeamTab', () => {
  beforeEach(() => {
    document.body.innerHTML = ''
    vi.mocked(api.GET)
      .mockReset()
      .mockImplementation((() => Promise.resolve({ data: { items: [carol] }, response: new Response(null, { status: 200 }) })) as never)
    vi.mocked(updateTeam).mockReset()
  })

  it('finds assessors among those who may edit assessments and assessees among those who may see them', async () => {
    const wrapper = mount(TeamTab, {
      attachTo: document.body,
      props: { assessment: anAssessment(), readOnly: false, canManage: true },
      global: { plugins: [createAppI18n('en')] },
    })
    expect(wrapper.get('[data-test="team-assessors"]').text()).toContain(ada.displayName)
    await wrapper.get('[data-test="team-edit"]').trigger('click')
    await flushPromises()
    const calls = vi.mocked(api.GET).mock.calls as unknown as [string, { params: { query: object } }][]
    const asked = calls.map(([path, init]) => [path, init.params.query])
    expect(asked).toEqual([
      ['/api/v1/people', { permission: 'assessments.edit', limit: 20 }],
      ['/api/v1/people', { permission: 'assessments.view', limit: 20 }],
    ])
    vi.mocked(updateTeam).mockResolvedValue(anAssessment({ version: 5 }))
    await wrapper.get('[data-test="team-save"]').trigger('click')
    await flushPromises()
    expect(updateTeam).toHaveBeenCalledWith('as_1', { version: 4, assessorIds: [ada.id], assesseeIds: [bob.id] })
    expect(wrapper.emitted('changed')).toHaveLength(1)
  })

  it('offers no editing to those who may not manage the team or in a read-only state', () => {
    for (const props of [{ readOnly: false, canManage: false }, { readOnly: true, canManage: true }]) {
      const wrapper = mount(TeamTab, { props: { assessment: anAssessment(), ...props }, global: { plugins: [createAppI18n('en')] } })
      expect(wrapper.find('[data-test="team-edit"]').exists()).toBe(false)
    }
  })
})
