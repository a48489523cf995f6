import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { createMemoryHistory, createRouter, type Router } from 'vue-router'
import { createAppI18n } from './i18n'
import MobileNav from './MobileNav.vue'
import { ADMINISTRATION, type NavItem } from './navigation'

const page = { template: '<p>page</p>' }
const entries: NavItem[] = [
  { routeName: 'dashboard', labelKey: 'nav.dashboard', icon: ADMINISTRATION.icon },
  { ...ADMINISTRATION, children: ADMINISTRATION.children.filter((entry) => ['admin-users', 'admin-audit'].includes(entry.routeName)) },
]

let router: Router

async function mountMenu(locale: 'en' | 'de' = 'en') {
  setActivePinia(createPinia())
  router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', name: 'dashboard', component: page },
      { path: '/admin/users', name: 'admin-users', component: page },
      { path: '/admin/audit', name: 'admin-audit', component: page },
    ],
  })
  await router.push('/')
  const wrapper = mount(MobileNav, {
    attachTo: document.body,
    props: { entries },
    global: { plugins: [router, createAppI18n(locale)] },
  })
  await flushPromises()
  return wrapper
}

function drawerLinks(): { text: string; href: string | null }[] {
  return [...document.querySelectorAll<HTMLAnchorElement>('[data-test="mobile-nav"] a')].map((link) => ({
    text: link.textContent?.trim() ?? '',
    href: link.getAttribute('href'),
  }))
}

describe('MobileNav', () => {
  beforeEach(() => {
    document.body.innerHTML = ''
  })

  it('opens a drawer with every entry, the administration pages included, and closes on navigation', async () => {
    const wrapper = await mountMenu()
    const toggle = wrapper.get('[data-test="mobile-nav-toggle"]')
    expect(toggle.attributes('aria-label')).toBe('Open the menu')
    expect(toggle.attributes('aria-expanded')).toBe('false')

    await toggle.trigger('click')
    await flushPromises()
    expect(toggle.attributes('aria-expanded')).toBe('true')
    expect(drawerLinks()).toEqual([
      { text: 'Dashboard', href: '/' },
      { text: 'Users', href: '/admin/users' },
      { text: 'Audit log', href: '/admin/audit' },
    ])
    const group = document.querySelector('#mobile-nav-group-administration')
    expect(group?.textContent?.trim()).toBe('Administration')
    // The display preferences travel into the drawer with the navigation.
    expect(document.querySelector('.mobile-nav [aria-label="Display preferences"]')).not.toBeNull()

    document.querySelector<HTMLAnchorElement>('[data-test="mobile-nav"] a[href="/admin/users"]')?.click()
    await flushPromises()
    expect(router.currentRoute.value.name).toBe('admin-users')
    expect(toggle.attributes('aria-expanded')).toBe('false')
    wrapper.unmount()
  })

  it('speaks German', async () => {
    const wrapper = await mountMenu('de')
    expect(wrapper.get('[data-test="mobile-nav-toggle"]').attributes('aria-label')).toBe('Menü öffnen')
    await wrapper.get('[data-test="mobile-nav-toggle"]').trigger('click')
    await flushPromises()
    expect(drawerLinks().map((link) => link.text)).toEqual(['Dashboard', 'Benutzer', 'Audit-Protokoll'])
    wrapper.unmount()
  })
})
