import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'
import { listAudit, type AuditRecord } from './api'
import AuditPage from './AuditPage.vue'

vi.mock('./api', () => ({ listAudit: vi.fn() }))

const records: AuditRecord[] = [
  {
    id: '4', occurredAt: '2026-11-20T14:30:15Z', actor: 'u_01admin', actorName: 'Ada Admin', action: 'user.created',
    targetType: 'user', targetId: 'u_01rita', targetName: 'Rita Reader', details: {},
  },
  { id: '3', occurredAt: '2026-11-20T14:00:00Z', actor: 'system', actorName: 'System', action: 'config.registration_mode_changed', targetType: 'config', targetId: 'REGISTRATION_MODE', details: {} },
  { id: '2', occurredAt: '2026-11-20T13:00:00Z', actor: 'cli:ops', actorName: 'Command line', action: 'encryption.kek_rotated', details: {} },
  { id: '1', occurredAt: '2026-11-20T12:00:00Z', actor: 'anonymous', actorName: 'Anonymous', action: 'auth.login_failed', targetType: 'user', targetId: 'u_01rita', targetName: 'Rita Reader', details: {} },
]

async function mountPage(locale: 'en' | 'de' = 'en', path = '/admin/audit') {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale(locale)
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/:any(.*)*', component: { template: '<p />' } }] })
  await router.push(path)
  const wrapper = mount(AuditPage, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n(locale)] } })
  await flushPromises()
  return Object.assign(wrapper, { router })
}

function texts(wrapper: ReturnType<typeof mount>, test: string): string[] {
  return wrapper.findAll(`[data-test="${test}"]`).map((cell) => cell.text())
}

describe('AuditPage', () => {
  beforeEach(() => {
    vi.mocked(listAudit).mockReset().mockResolvedValue({ items: records, hasMore: false })
    document.body.innerHTML = ''
  })

  it('names actors and targets instead of showing ids, keeping the id in the tooltip', async () => {
    const wrapper = await mountPage()
    expect(texts(wrapper, 'audit-actor')).toEqual(['Ada Admin', 'System', 'Command line (ops)', 'Anonymous'])
    expect(wrapper.get('[data-test="audit-actor"]').attributes('title')).toBe('u_01admin')
    expect(texts(wrapper, 'audit-target')).toEqual(['User: Rita Reader', 'Configuration: REGISTRATION_MODE', 'User: Rita Reader'])
    expect(wrapper.get('[data-test="audit-target"]').attributes('title')).toBe('u_01rita')
    expect(wrapper.text()).not.toContain('u_01admin')
    wrapper.unmount()
  })

  it('speaks German', async () => {
    const wrapper = await mountPage('de')
    expect(texts(wrapper, 'audit-actor')).toEqual(['Ada Admin', 'System', 'Befehlszeile (ops)', 'Anonym'])
    expect(texts(wrapper, 'audit-target')[0]).toBe('Benutzer: Rita Reader')
    wrapper.unmount()
  })

  it('filters by the username typed into the actor field', async () => {
    vi.useFakeTimers()
    try {
      const wrapper = await mountPage()
      const actor = wrapper.get('input[aria-label="Actor (username or ID)"]')
      expect(actor.attributes('placeholder')).toBe('Actor: username or ID')
      await actor.setValue(' rita ')
      await vi.advanceTimersByTimeAsync(400)
      expect(vi.mocked(listAudit)).toHaveBeenLastCalledWith(expect.objectContaining({ actor: ' rita ' }), undefined)
      wrapper.unmount()
    } finally {
      vi.useRealTimers()
    }
  })

  it('keeps its filters in the URL: a link opens the log filtered, and typing changes the link', async () => {
    vi.useFakeTimers()
    try {
      const wrapper = await mountPage('en', '/admin/audit?actor=rita&action=user.&from=2026-11-01&to=2026-11-20')
      expect(vi.mocked(listAudit)).toHaveBeenLastCalledWith(
        { action: 'user.', actor: 'rita', days: [new Date(2026, 10, 1), new Date(2026, 10, 20)] }, undefined)
      expect((wrapper.get('input[aria-label="Actor (username or ID)"]').element as HTMLInputElement).value).toBe('rita')
      await wrapper.get('input[aria-label="Actor (username or ID)"]').setValue('system')
      await vi.advanceTimersByTimeAsync(400)
      expect(wrapper.router.currentRoute.value.query).toEqual({ action: 'user.', actor: 'system', from: '2026-11-01', to: '2026-11-20' })
      wrapper.unmount()
    } finally {
      vi.useRealTimers()
    }
  })

  it('names the records of the work by name, linked to their pages, and a deleted one without a link', async () => {
    vi.mocked(listAudit).mockResolvedValue({
      items: [
        { id: '6', occurredAt: '2026-11-20T15:00:00Z', actor: 'u_01ann', actorName: 'Ann', action: 'evidence.linked', targetType: 'evidence',
          targetId: 'ev_01sbom', targetName: 'SBOM', targetLink: '/evidence/ev_01sbom', details: { requirement: 'V1.2.3' } },
        { id: '5', occurredAt: '2026-11-20T14:50:00Z', actor: 'u_01ann', actorName: 'Ann', action: 'evidence.deleted', targetType: 'evidence',
          targetId: 'ev_01gone', targetName: 'Scratch', details: { name: 'Scratch' } },
      ],
      hasMore: false,
    })
    const pinia = createPinia()
    setActivePinia(pinia)
    usePreferencesStore().setLocale('de')
    const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/:any(.*)*', component: { template: '<p />' } }] })
    await router.push('/admin/audit')
    const wrapper = mount(AuditPage, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n('de')] } })
    await flushPromises()
    expect(texts(wrapper, 'audit-target')).toEqual(['Nachweis: SBOM', 'Nachweis: Scratch'])
    const link = wrapper.get('[data-test="audit-target-link"]')
    expect(link.attributes('href')).toBe('/evidence/ev_01sbom')
    expect(wrapper.findAll('[data-test="audit-target"]').map((cell) => cell.attributes('title'))).toEqual(['ev_01sbom', 'ev_01gone'])
    expect(wrapper.findAll('[data-test="audit-target-link"]')).toHaveLength(1)
    wrapper.unmount()
  })
})
