import { mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter, type Router } from 'vue-router'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'
import { labelInName, nameStartsWithLabel, settle } from '../../app/testing'
import { searchRecords, type SearchResults } from './api'
import GlobalSearch from './GlobalSearch.vue'
import { nextIndex } from './hits'
import SearchPage from './SearchPage.vue'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  searchRecords: vi.fn(),
}))

const search = vi.mocked(searchRecords)

const RESULTS: SearchResults = {
  query: 'v1.2',
  groups: [
    {
      type: 'requirement',
      more: true,
      items: [
        { id: 'rq_1', type: 'requirement', title: 'V1.2.3 Session management', subtitle: 'ASVS 5.0.0', link: '/standards/st_1?requirement=rq_1', rank: 2 },
        { id: 'rq_2', type: 'requirement', title: 'V1.2.4 Token lifetime', subtitle: 'ASVS 5.0.0', link: '/standards/st_1?requirement=rq_2', rank: 1 },
      ],
    },
    {
      type: 'entity',
      more: false,
      items: [{ id: 'en_1', type: 'entity', title: 'Warehouse', subtitle: 'product', link: '/entities/en_1', rank: 1 }],
    },
  ],
}

const stub = { template: '<div />' }
let router: Router
let mounted: VueWrapper | null = null

async function mountWith(component: object, locale: 'en' | 'de' = 'en', path = '/'): Promise<VueWrapper> {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale(locale)
  router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', name: 'dashboard', component: stub },
      { path: '/search', name: 'search', component: stub },
      { path: '/standards/:id', name: 'standard', component: stub },
      { path: '/entities/:id', name: 'entity', component: stub },
    ],
  })
  await router.push(path)
  mounted = mount(component, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n(locale)] } })
  await settle()
  return mounted
}

function dialogInput(): HTMLInputElement {
  const input = document.body.querySelector<HTMLInputElement>('[data-test="global-search"] input')
  if (!input) throw new Error('the search dialog is not open')
  return input
}

async function type(input: HTMLInputElement, text: string): Promise<void> {
  input.value = text
  input.dispatchEvent(new Event('input'))
  await new Promise((resolve) => setTimeout(resolve, 250)) // past the debounce
  await settle()
}

function key(input: HTMLInputElement, name: string): Promise<void> {
  input.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true }))
  return settle()
}

// IMPLICIT_ROLES are the roles that the elements SearchHitList renders have without a role attribute.
const IMPLICIT_ROLES: Record<string, string> = { A: 'link', BUTTON: 'button', H1: 'heading', H2: 'heading', H3: 'heading', H4: 'heading', LI: 'listitem', OL: 'list', P: 'paragraph', UL: 'list' }

/**
 * ownedRoles lists the roles a listbox owns, as axe-core's aria-required-children finds them:
 * it looks through elements without a role (or presentational ones) and through groups, which
 * a listbox may hold, and counts any other element with a role, or one that takes the focus.
 */
function ownedRoles(element: Element): string[] {
  return [...element.children].flatMap((child) => {
    const implicit = child.tagName === 'A' && !child.hasAttribute('href') ? undefined : IMPLICIT_ROLES[child.tagName]
    const role = child.getAttribute('role') ?? implicit ?? null
    const plain = role === null || role === 'presentation' || role === 'none'
    if (plain && child.hasAttribute('tabindex')) return ['focusable']
    if (plain || role === 'group') return [...(role === 'group' ? ['group'] : []), ...ownedRoles(child)]
    return [role]
  })
}

function byId(id: string | null | undefined): HTMLElement | null {
  return id ? document.getElementById(id) : null
}

afterEach(() => {
  mounted?.unmount()
  mounted = null
  document.body.innerHTML = ''
  vi.clearAllMocks()
})

describe('GlobalSearch', () => {
  it('opens with Ctrl-K, searches once typing pauses, and shows the hits grouped by kind', async () => {
    search.mockResolvedValue(RESULTS)
    await mountWith(GlobalSearch)
    expect(document.body.querySelector('[data-test="global-search"] input')).toBeNull()
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', ctrlKey: true }))
    await settle()
    const input = dialogInput()
    input.value = 'v'
    input.dispatchEvent(new Event('input'))
    await type(input, 'v1.2')
    expect(search).toHaveBeenCalledTimes(1) // debounced: one request for the pause, not one per keystroke
    expect(search).toHaveBeenCalledWith('v1.2')
    const groups = [...document.body.querySelectorAll('[data-test^="search-group-"] h3')].map((h) => h.textContent)
    expect(groups).toEqual(['Requirements', 'Entities'])
    const hits = document.body.querySelectorAll('[data-test="search-hit"]')
    expect(hits).toHaveLength(3)
    expect(hits[0]?.getAttribute('aria-selected')).toBe('true')
    expect(hits[2]?.textContent).toContain('Product') // an entity's type, in words
  })

  it('moves with the arrow keys, opens the active hit with Enter and closes', async () => {
    search.mockResolvedValue(RESULTS)
    const wrapper = await mountWith(GlobalSearch)
    await wrapper.find('button').trigger('click')
    await settle()
    const input = dialogInput()
    await type(input, 'v1.2')
    await key(input, 'ArrowDown')
    await key(input, 'ArrowDown')
    await key(input, 'ArrowUp')
    const hits = document.body.querySelectorAll('[data-test="search-hit"]')
    expect(hits[1]?.getAttribute('aria-selected')).toBe('true')
    expect(input.getAttribute('aria-activedescendant')).toBe(hits[1]?.id)
    await key(input, 'Enter')
    expect(router.currentRoute.value.fullPath).toBe('/standards/st_1?requirement=rq_2')
  })

  it('shows the hits as a listbox that owns only named groups of options, the input pointing at the active one', async () => {
    search.mockResolvedValue(RESULTS)
    await mountWith(GlobalSearch)
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', ctrlKey: true }))
    await settle()
    const input = dialogInput()
    await type(input, 'v1.2')
    // The input itself is the combobox: el-input drops a role attribute, and aria-expanded on
    // a plain text box is an attribute it may not have.
    expect(input.getAttribute('role')).toBe('combobox')
    expect(input.getAttribute('aria-expanded')).toBe('true')
    const listbox = byId(input.getAttribute('aria-controls'))
    expect(listbox?.getAttribute('role')).toBe('listbox')
    expect(listbox?.getAttribute('aria-label')).toBe('Search results')
    // Before, the headings (and "more" buttons) were the listbox's own children next to its options.
    expect(new Set(ownedRoles(listbox!))).toEqual(new Set(['group', 'option']))
    const groups = [...listbox!.querySelectorAll('[role="group"]')]
    expect(groups.map((g) => byId(g.getAttribute('aria-labelledby'))?.textContent)).toEqual(['Requirements', 'Entities'])
    expect(groups.map((g) => g.querySelectorAll('[role="option"]').length)).toEqual([2, 1])
    expect(listbox!.querySelector('button')).toBeNull()
    const options = [...listbox!.querySelectorAll('[role="option"]')]
    expect(options.map((o) => o.getAttribute('aria-selected'))).toEqual(['true', 'false', 'false'])
    await key(input, 'ArrowDown')
    const active = byId(input.getAttribute('aria-activedescendant'))
    expect(active?.getAttribute('role')).toBe('option')
    expect(active?.getAttribute('aria-selected')).toBe('true')
    expect(listbox!.contains(active)).toBe(true)
    expect(active?.textContent).toContain('V1.2.4 Token lifetime')
  })

  it.each([
    ['en', 'Search', 'Ctrl K', 'Search – Ctrl K'],
    ['de', 'Suchen', 'Strg K', 'Suchen – Strg K'],
  ] as const)('names the header button with the words it shows, shortcut included (%s)', async (locale, word, shortcut, name) => {
    const wrapper = await mountWith(GlobalSearch, locale)
    const button = wrapper.get('[data-test="global-search-button"]')
    // axe-core reads the words one sees, the aria-hidden shortcut too, and skips what is in
    // parentheses: the name "Search (Ctrl K)" counted as "Search", over the text "SearchCtrl K"
    // (or just "Ctrl K" where the word is hidden), and the German one said "Strg" over a "Ctrl".
    expect(button.element.textContent?.trim()).toBe(`${word} ${shortcut}`)
    expect(button.attributes('aria-label')).toBe(name)
    expect(button.attributes('title')).toBe(name)
    expect(button.attributes('aria-keyshortcuts')).toBe('Control+K')
    expect(nameStartsWithLabel(button.element.textContent ?? '', name)).toBe(true)
    // Between 901 and 1,999 px the word is hidden and only the shortcut shows.
    expect(labelInName(shortcut, name)).toBe(true)
    expect(button.get('kbd').attributes('aria-hidden')).toBe('true')
  })

  it('says so when nothing matches, and "All results" opens the results page', async () => {
    search.mockResolvedValue({ query: 'zzz', groups: [] })
    await mountWith(GlobalSearch, 'de')
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'K', metaKey: true }))
    await settle()
    await type(dialogInput(), 'zzz')
    expect(document.body.querySelector('[data-test="global-search-empty"]')?.textContent).toContain('„zzz“')
    document.body.querySelector<HTMLButtonElement>('[data-test="global-search-all"]')?.click()
    await settle()
    expect(router.currentRoute.value.fullPath).toBe('/search?q=zzz')
  })
})

describe('SearchPage', () => {
  it('searches the query of the URL and loads more of one kind', async () => {
    search.mockResolvedValueOnce(RESULTS).mockResolvedValueOnce({
      query: 'v1.2',
      groups: [{ type: 'requirement', more: false, items: [...RESULTS.groups[0]!.items, { ...RESULTS.groups[0]!.items[0]!, id: 'rq_3', title: 'V1.2.5 Logout' }] }],
    })
    await mountWith(SearchPage, 'en', '/search?q=v1.2')
    expect(search).toHaveBeenCalledWith('v1.2', { limit: 10 })
    expect(document.body.querySelectorAll('[data-test="search-hit"]')).toHaveLength(3)
    document.body.querySelector<HTMLButtonElement>('[data-test="search-more-requirement"]')?.click()
    await settle()
    expect(search).toHaveBeenLastCalledWith('v1.2', { types: ['requirement'], limit: 50 })
    expect(document.body.querySelectorAll('[data-test="search-hit"]')).toHaveLength(4)
    expect(document.body.querySelector('[data-test="search-more-requirement"]')).toBeNull()
  })

  it('lists the hits as links under their headings, no listbox, each reached with Tab', async () => {
    search.mockResolvedValue(RESULTS)
    await mountWith(SearchPage, 'en', '/search?q=v1.2')
    // The page moves no active option: a listbox there announced options nothing selects, and
    // its hits (tabindex -1) were out of the tab order.
    expect(document.body.querySelector('[role="listbox"], [role="option"], [role="group"]')).toBeNull()
    const lists = [...document.body.querySelectorAll('.search-hits ul')]
    expect(lists.map((l) => byId(l.getAttribute('aria-labelledby'))?.textContent)).toEqual(['Requirements', 'Entities'])
    expect(lists.map((l) => byId(l.getAttribute('aria-labelledby'))?.tagName)).toEqual(['H2', 'H2'])
    const hits = [...document.body.querySelectorAll<HTMLAnchorElement>('[data-test="search-hit"]')]
    expect(hits).toHaveLength(3)
    for (const hit of hits) {
      expect(hit.tagName).toBe('A')
      expect(hit.parentElement?.tagName).toBe('LI')
      expect(hit.hasAttribute('tabindex')).toBe(false)
      expect(hit.hasAttribute('role')).toBe(false)
    }
    hits[2]!.click()
    await settle()
    expect(router.currentRoute.value.fullPath).toBe('/entities/en_1')
  })
})

describe('nextIndex', () => {
  it.each([
    [-1, 1, 3, 0],
    [-1, -1, 3, 2],
    [2, 1, 3, 0],
    [0, -1, 3, 2],
    [1, 1, 3, 2],
    [0, 1, 0, -1],
  ])('from %i by %i of %i is %i', (current, step, count, want) => {
    expect(nextIndex(current, step, count)).toBe(want)
  })
})
