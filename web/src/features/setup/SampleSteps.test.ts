import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../api/errors'
import { createAppI18n } from '../../app/i18n'
import { useSetupStore } from '../../app/setup/store'
import { importStarterStandards, loadDemoData } from './api'
import DemoDataStep from './DemoDataStep.vue'
import StarterStandardsStep from './StarterStandardsStep.vue'

vi.mock('./api', () => ({ importStarterStandards: vi.fn(), loadDemoData: vi.fn() }))

function mountStep(component: typeof StarterStandardsStep | typeof DemoDataStep, wizard = true, starterStandardsBuiltIn = true) {
  const pinia = createPinia()
  setActivePinia(pinia)
  useSetupStore().status = { setupComplete: true, setupUrl: '/setup', passwordMinLength: 12, uploadMaxFileSize: 50 << 20, starterStandardsBuiltIn }
  return mount(component, { props: { wizard }, global: { plugins: [pinia, createAppI18n('en')] } })
}

describe('the starter standards step', () => {
  beforeEach(() => {
    vi.mocked(importStarterStandards).mockReset()
  })

  it('shows its progress, then what it imported, and lets the wizard continue', async () => {
    let finish: (value: Awaited<ReturnType<typeof importStarterStandards>>) => void = () => {}
    vi.mocked(importStarterStandards).mockReturnValue(new Promise((resolve) => (finish = resolve)))
    const wrapper = mountStep(StarterStandardsStep)
    await wrapper.get('[data-test="starter-run"]').trigger('click')
    expect(wrapper.find('[data-test="starter-progress"]').text()).toContain('Importing the starter standards')
    expect(wrapper.get('[data-test="starter-next"]').attributes('disabled')).toBeDefined()
    finish({
      created: 1,
      unchanged: 1,
      standards: [
        { id: 'st_1', name: 'OWASP ASVS', standardVersion: '5.0.0', outcome: 'created' },
        { id: 'st_2', name: 'OWASP SCVS', standardVersion: '1.0', outcome: 'unchanged' },
      ] as never,
    })
    await flushPromises()
    const result = wrapper.get('[data-test="starter-result"]').text()
    expect(result).toContain('one standard imported')
    expect(result).toContain('OWASP SCVS 1.0 (already present)')
    expect(wrapper.get('[data-test="starter-next"]').text()).toBe('Continue')
    await wrapper.get('[data-test="starter-next"]').trigger('click')
    expect(wrapper.emitted('next')).toEqual([[false]])
  })

  it('says the starter set is built in, so it needs no internet access (issue 26 item 7)', () => {
    const text = mountStep(StarterStandardsStep).text()
    expect(text).toContain('OWASP ASVS 5.0.0, NIST SSDF 1.1, OWASP SAMM 2.1.0 and OWASP SCVS 1.0')
    expect(text).toContain('built into Assay, so this works without internet access')
  })

  it('promises no offline import on a server built without the set: it says the import needs internet access', () => {
    const text = mountStep(StarterStandardsStep, true, false).get('[data-test="starter-network"]').text()
    expect(text).not.toContain('without internet access')
    expect(text).toBe('This server downloads the set from the standards feed, so it needs internet access.')
  })

  it('tells the wizard that it was skipped', async () => {
    const wrapper = mountStep(StarterStandardsStep)
    await wrapper.get('[data-test="starter-next"]').trigger('click')
    expect(wrapper.emitted('next')).toEqual([[true]])
  })

  it("explains an unreachable feed (a server built without the set) in the server's words and can be skipped", async () => {
    const refused = new ApiError(422, 'business_rule_violation', 'The standards feed at cyclonedx.org could not be reached: the name does not resolve.', 'r1', [
      { field: 'feed', code: 'feed_unreachable', message: 'Standards can also be imported from a CycloneDX file upload.' },
    ])
    vi.mocked(importStarterStandards).mockImplementation(async () => {
      throw refused
    })
    const wrapper = mountStep(StarterStandardsStep)
    await wrapper.get('[data-test="starter-run"]').trigger('click')
    await flushPromises()
    const text = wrapper.text()
    expect(text).toContain('The starter standards could not be imported')
    expect(text).toContain('The standards feed at cyclonedx.org could not be reached: the name does not resolve.')
    expect(text).toContain('Standards can also be imported from a CycloneDX file upload.')
    expect(text).not.toContain('feed:')
    expect(text).toContain('This server was built without the starter set')
    expect(wrapper.get('[data-test="starter-run"]').text()).toBe('Try again')
    expect(wrapper.get('[data-test="starter-next"]').text()).toBe('Skip')
  })

  it('has no skip button outside the wizard', () => {
    expect(mountStep(StarterStandardsStep, false).find('[data-test="starter-next"]').exists()).toBe(false)
  })
})

describe('the demo data step', () => {
  beforeEach(() => {
    vi.mocked(loadDemoData).mockReset()
  })

  it('says the demo accounts are deactivated without passwords, and shows what it created', async () => {
    vi.mocked(loadDemoData).mockResolvedValue({
      alreadyLoaded: false,
      created: { entities: 10, relationships: 12, projects: 2, tags: 4, users: 4 },
      existing: { entities: [], tags: [], users: [] },
    })
    const wrapper = mountStep(DemoDataStep)
    expect(wrapper.text()).toContain('They are deactivated and have no password')
    await wrapper.get('[data-test="demo-run"]').trigger('click')
    await flushPromises()
    const result = wrapper.get('[data-test="demo-result"]').text()
    for (const line of ['10 entities', '12 relationships', '2 projects', '4 tags', '4 demo accounts (deactivated)']) {
      expect(result).toContain(line)
    }
  })

  it('names the demo records that existed by name and were used or left out', async () => {
    vi.mocked(loadDemoData).mockResolvedValue({
      alreadyLoaded: false,
      created: { entities: 9, relationships: 12, projects: 2, tags: 4, users: 3 },
      existing: { entities: ['Acme Corp'], tags: [], users: ['demo.assessor'] },
    })
    const wrapper = mountStep(DemoDataStep)
    await wrapper.get('[data-test="demo-run"]').trigger('click')
    await flushPromises()
    const existing = wrapper.get('[data-test="demo-existing"]').text()
    expect(existing).toContain('Existed already, used as they are: Acme Corp')
    expect(existing).toContain('Accounts left out (username or e-mail address taken): demo.assessor')
    expect(existing).not.toContain('Tags')
  })

  it('says so when the demo data was loaded before', async () => {
    vi.mocked(loadDemoData).mockResolvedValue({
      alreadyLoaded: true,
      created: { entities: 0, relationships: 0, projects: 0, tags: 0, users: 0 },
      existing: { entities: [], tags: [], users: [] },
    })
    const wrapper = mountStep(DemoDataStep)
    await wrapper.get('[data-test="demo-run"]').trigger('click')
    await flushPromises()
    expect(wrapper.get('[data-test="demo-result"]').text()).toContain('The demo data is loaded already.')
    await wrapper.get('[data-test="demo-next"]').trigger('click')
    expect(wrapper.emitted('next')).toEqual([[false]])
  })

  it('tells the wizard that it was skipped', async () => {
    const wrapper = mountStep(DemoDataStep)
    await wrapper.get('[data-test="demo-next"]').trigger('click')
    expect(wrapper.emitted('next')).toEqual([[true]])
  })
})
