import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../api/client'
import { createAppI18n } from '../../app/i18n'
import { fetchRequirement, updateRequirement } from './api'
import { levels, requirement } from './components/fixtures'
import RequirementDrawer from './RequirementDrawer.vue'
import type { Requirement, TreeRequirement } from './types'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  updateRequirement: vi.fn(),
  fetchRequirement: vi.fn(),
}))

let wrapper: VueWrapper | null = null

function shown(): TreeRequirement {
  return {
    ...requirement('a1', 'a', 'V1.1', ['l1']),
    name: 'Verify input',
    description: 'First line\nSecond line',
    openCre: ['CRE:764-507', '227-045'],
    externalReferences: [
      { type: 'website', url: 'https://example.com/guide', comment: 'The guide' },
      { type: 'other', url: 'javascript:alert(1)' },
      { type: 'vcs', url: 'urn:isbn:0451450523' },
    ],
    properties: [{ name: 'cwe', value: '20' }],
    version: 7,
  }
}

async function mountDrawer(over: Partial<{ requirement: Requirement; editable: boolean }> = {}): Promise<void> {
  wrapper = mount(RequirementDrawer, {
    attachTo: document.body,
    props: {
      requirement: shown(),
      requirements: [requirement('a', null, 'V1'), shown()],
      levels,
      standardId: 'st_1',
      editable: true,
      ...over,
    },
    global: { plugins: [createAppI18n('en')] },
  })
  await flushPromises()
}

const query = (test: string) => document.querySelector<HTMLElement>(`[data-test="${test}"]`)
const all = (test: string) => [...document.querySelectorAll<HTMLElement>(`[data-test="${test}"]`)]

// Form validation and server messages take a few turns of the event loop.
async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) {
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
}

async function click(test: string): Promise<void> {
  query(test)!.click()
  await settle()
}

async function type(element: HTMLInputElement | HTMLTextAreaElement, value: string): Promise<void> {
  element.value = value
  element.dispatchEvent(new Event('input'))
  await flushPromises()
}

// Element Plus shows a field's error 100 ms after validating (a debounce).
async function fieldErrors(): Promise<string[]> {
  await new Promise((resolve) => setTimeout(resolve, 150))
  await flushPromises()
  return [...document.querySelectorAll('.el-form-item__error')].map((e) => e.textContent?.trim() ?? '')
}

function input(test: string, index = 0): HTMLInputElement {
  // Element Plus puts attributes on the native control of an input, on the wrapper of others.
  const element = all(test)[index]!
  return element.matches('input, textarea') ? (element as HTMLInputElement) : element.querySelector<HTMLInputElement>('input, textarea')!
}

describe('RequirementDrawer', () => {
  beforeEach(() => {
    document.body.innerHTML = ''
    vi.mocked(updateRequirement).mockReset()
    vi.mocked(fetchRequirement).mockReset()
  })
  afterEach(() => {
    wrapper?.unmount()
    wrapper = null
  })

  it('shows the requirement in full, OpenCRE ids linked to opencre.org', async () => {
    await mountDrawer({ editable: false })
    expect(query('detail-identifier')!.textContent).toBe('V1.1')
    expect(query('detail-name')!.textContent).toContain('Verify input')
    expect(query('detail-description')!.textContent).toBe('First line\nSecond line')
    expect(query('detail-parent')!.textContent).toContain('V1 Name of V1')
    expect(query('detail-levels')!.textContent).toContain('Opportunistic')
    expect(query('detail-levels')!.textContent).not.toContain('Standard')
    const links = all('detail-opencre') as HTMLAnchorElement[]
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://www.opencre.org/cre/764-507', 'https://www.opencre.org/cre/227-045'])
    expect(links.every((a) => a.target === '_blank' && a.rel === 'noopener noreferrer')).toBe(true)
    expect(query('detail-properties')!.textContent).toContain('cwe')
  })

  it('links only http and https references', async () => {
    await mountDrawer({ editable: false })
    const references = all('detail-reference')
    expect(references).toHaveLength(3)
    const first = references[0]!.querySelector('a')!
    expect(first.getAttribute('href')).toBe('https://example.com/guide')
    expect(first.rel).toBe('noopener noreferrer')
    expect(references[0]!.textContent).toContain('The guide')
    for (const other of references.slice(1)) {
      expect(other.querySelector('a')).toBeNull()
      expect(other.querySelector('[data-test="detail-reference-text"]')).not.toBeNull()
    }
    expect(references[1]!.textContent).toContain('javascript:alert(1)')
  })

  it('offers no editing when read-only', async () => {
    await mountDrawer({ editable: false })
    expect(query('detail-edit')).toBeNull()
    expect(query('detail-form')).toBeNull()
    expect(query('detail-save')).toBeNull()
    expect(document.querySelector('[data-test="requirement-drawer"] input, [data-test="requirement-drawer"] textarea')).toBeNull()
  })

  it('saves what changed with the version it was filled from', async () => {
    const saved = { ...shown(), name: 'Verify all input', version: 8 }
    vi.mocked(updateRequirement).mockResolvedValue(saved)
    await mountDrawer()
    await click('detail-edit')
    await type(input('detail-name-input'), 'Verify all input')
    // A new OpenCRE id: typed, then a space ends it.
    await type(input('detail-opencre-input'), 'CRE:111-222 ')
    // The reference with a javascript: URL goes; a new one comes.
    all('detail-reference-remove')[1]!.click()
    await flushPromises()
    await click('detail-add-reference')
    await type(input('detail-reference-url', 2), 'https://github.com/example/repo')
    await type(input('detail-reference-comment', 2), ' Source ')
    await click('detail-save')
    expect(updateRequirement).toHaveBeenCalledWith('st_1', 'a1', {
      version: 7,
      name: 'Verify all input',
      openCre: ['CRE:764-507', '227-045', 'CRE:111-222'],
      externalReferences: [
        { type: 'website', url: 'https://example.com/guide', comment: 'The guide' },
        { type: 'vcs', url: 'urn:isbn:0451450523' },
        { type: 'website', url: 'https://github.com/example/repo', comment: 'Source' },
      ],
    })
    expect(wrapper!.emitted('saved')).toEqual([[saved]])
    expect(query('detail-form')).toBeNull()
  })

  it('refuses a new URL that is not http or https', async () => {
    await mountDrawer()
    await click('detail-edit')
    await click('detail-add-reference')
    await type(input('detail-reference-url', 3), 'ftp://example.com/file')
    await click('detail-save')
    expect(updateRequirement).not.toHaveBeenCalled()
    expect(await fieldErrors()).toEqual(['Enter an http or https address.'])
  })

  it('shows a version conflict and reloads the requirement', async () => {
    vi.mocked(updateRequirement).mockRejectedValue(new ApiError(409, 'version_conflict', 'stale', 'req_1'))
    const fresh = { ...shown(), name: 'Changed elsewhere', version: 9 }
    vi.mocked(fetchRequirement).mockResolvedValue(fresh)
    await mountDrawer()
    await click('detail-edit')
    await type(input('detail-name-input'), 'Mine')
    await click('detail-save')
    expect(document.body.textContent).toContain('This requirement has changed')
    const reload = [...document.querySelectorAll('button')].find((b) => b.textContent?.includes('Reload'))!
    reload.click()
    await flushPromises()
    expect(fetchRequirement).toHaveBeenCalledWith('st_1', 'a1')
    expect(wrapper!.emitted('saved')).toEqual([[fresh]])
    expect(input('detail-name-input').value).toBe('Changed elsewhere')
    expect(document.body.textContent).not.toContain('This requirement has changed')
  })

  it('puts the server’s field errors on the fields', async () => {
    vi.mocked(updateRequirement).mockRejectedValue(
      new ApiError(400, 'validation', 'invalid', 'req_1', [
        { field: 'body.openCre[1]', code: 'too_long', message: 'Too long.' },
        { field: 'externalReferences[0].comment', code: 'too_long', message: 'Comment too long.' },
      ]),
    )
    await mountDrawer()
    await click('detail-edit')
    await type(input('detail-name-input'), 'Other')
    await click('detail-save')
    expect(await fieldErrors()).toEqual(['Too long.', 'Comment too long.'])
    expect(document.querySelector('[data-test="requirement-drawer"] .el-alert')).toBeNull()
  })
})
