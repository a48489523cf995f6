import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createAppI18n } from '../../app/i18n'
import { signedInAssessee } from '../../app/session/fixtures'
import { useSessionStore } from '../../app/session/store'
import { fetchChannelStatus, fetchEventTypes, type ChannelStatus } from '../../resources/events/api'
import { catalogue } from '../../resources/events/fixtures'
import { rulesFor } from '../../resources/notification-rules/api'
import PersonalRulesCard from './PersonalRulesCard.vue'

vi.mock('../../resources/events/api', () => ({ fetchEventTypes: vi.fn(), fetchChannelStatus: vi.fn() }))
vi.mock('../../resources/notification-rules/api', () => {
  const rules = { list: vi.fn(), create: vi.fn(), update: vi.fn(), remove: vi.fn() }
  return { rulesFor: () => rules, personalRules: rules, globalRules: rules }
})

const rules = rulesFor('personal')
const channels = (email: boolean): ChannelStatus => ({ inApp: true, email, webhook: true, slack: false, teams: false, mattermost: false })
let mounted: VueWrapper | null = null

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
}

async function mountCard(permissions: string[], emailOn: boolean): Promise<VueWrapper> {
  const pinia = createPinia()
  setActivePinia(pinia)
  useSessionStore().me = { ...signedInAssessee, permissions }
  vi.mocked(fetchChannelStatus).mockResolvedValue(channels(emailOn))
  mounted = mount(PersonalRulesCard, { attachTo: document.body, global: { plugins: [pinia, createAppI18n('en')] } })
  await settle()
  return mounted
}

// openDialog opens "Add rule"; the dialog is teleported to <body>.
async function openDialog(wrapper: VueWrapper): Promise<HTMLElement> {
  const add = wrapper.findAll('button').find((button) => button.text() === 'Add rule')
  await add?.trigger('click')
  await settle()
  const dialogs = document.body.querySelectorAll<HTMLElement>('.el-dialog')
  const dialog = dialogs[dialogs.length - 1]
  if (!dialog) throw new Error('no dialog')
  return dialog
}

beforeEach(() => {
  vi.mocked(fetchEventTypes).mockResolvedValue(catalogue)
  vi.mocked(rules.list).mockResolvedValue({ items: [], hasMore: false })
  vi.mocked(rules.create).mockReset()
})

afterEach(() => {
  mounted?.unmount()
  mounted = null
  document.body.innerHTML = ''
})

describe('my notification rules', () => {
  it('offers only the event types the user’s permissions let them receive', async () => {
    const wrapper = await mountCard(['admin.settings'], true)
    const dialog = await openDialog(wrapper)
    const categories = [...dialog.querySelectorAll('legend .el-checkbox__label')].map((label) => label.textContent?.trim())
    expect(categories).toEqual(['API keys'])
    expect(dialog.textContent).not.toContain('All events')
  })

  it('disables e-mail with a hint while e-mail is off', async () => {
    const wrapper = await mountCard(['admin.settings'], false)
    expect(wrapper.text()).toContain('rules can notify you in-app only')
    const dialog = await openDialog(wrapper)
    const email = [...dialog.querySelectorAll<HTMLLabelElement>('label.el-checkbox')].find((label) => label.textContent?.trim() === 'E-mail')
    expect(email?.classList.contains('is-disabled')).toBe(true)
    expect(dialog.querySelector('[data-test="email-off-hint"]')?.textContent).toContain('E-mail is switched off')
  })

  it('sends a personal rule with in-app only and the chosen category', async () => {
    vi.mocked(rules.create).mockResolvedValue({
      id: 'nr_1',
      scope: 'personal',
      name: 'Keys',
      eventTypes: ['apikey.*'],
      channels: { inApp: true, email: false, webhookIds: [], chatIds: [] },
      roles: [],
      emails: [],
      enabled: true,
      warnings: [],
      version: 1,
      createdAt: '2025-03-01T09:00:00Z',
      updatedAt: '2025-03-01T09:00:00Z',
    })
    const wrapper = await mountCard(['admin.settings'], true)
    const dialog = await openDialog(wrapper)
    const name = dialog.querySelector<HTMLInputElement>('input[name="name"]')!
    name.value = 'Keys'
    name.dispatchEvent(new Event('input'))
    dialog.querySelector<HTMLInputElement>('legend input[type="checkbox"]')!.click()
    await settle()
    ;[...dialog.querySelectorAll<HTMLButtonElement>('.el-dialog__footer button')].find((b) => b.textContent?.trim() === 'Add rule')?.click()
    await settle()
    await vi.waitFor(() =>
      expect(rules.create).toHaveBeenCalledWith({
        name: 'Keys',
        eventTypes: ['apikey.*'],
        channels: { inApp: true, email: false, webhookIds: [], chatIds: [] },
        roles: [],
        emails: [],
        enabled: true,
      }),
    )
  })
})
