import { flushPromises, mount } from '@vue/test-utils'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../api/errors'
import { createAppI18n } from '../../app/i18n'
import { signedInAssessee, signedInPinia } from '../../app/session/fixtures'
import { createClaim, fetchRequirementOptions, listAllClaims, searchClaimEvidence, updateClaim } from './api'
import ClaimEditorDialog from './ClaimEditorDialog.vue'
import { aClaim } from './fixtures'
import type { Claim } from './types'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  createClaim: vi.fn(),
  updateClaim: vi.fn(),
  fetchClaim: vi.fn(),
  listAllClaims: vi.fn(),
  fetchRequirementOptions: vi.fn(),
  searchClaimEvidence: vi.fn(),
}))

const saved = aClaim({ requirementIds: ['ar_1'] })

async function settle(): Promise<void> {
  for (let i = 0; i < 6; i++) {
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
}

async function open(props: Record<string, unknown> = {}) {
  const pinia = signedInPinia(signedInAssessee, ['claims.create', 'claims.edit', 'entities.view'])
  const wrapper = mount(ClaimEditorDialog, {
    props: { modelValue: false, assessmentId: 'as_1', requirementIds: ['ar_1'], ...props },
    attachTo: document.body,
    global: { plugins: [pinia, createAppI18n('en')] },
  })
  await wrapper.setProps({ modelValue: true })
  await settle()
  return wrapper
}

function field(test: string): HTMLInputElement | HTMLTextAreaElement {
  const el = document.querySelector(`[data-test="${test}"]`)
  const input = el?.matches('input, textarea') ? el : el?.querySelector('input, textarea')
  if (!input) throw new Error(`no field ${test}`)
  return input as HTMLInputElement
}

function type(test: string, value: string): void {
  const input = field(test)
  input.value = value
  input.dispatchEvent(new Event('input'))
}

function click(test: string, index = 0): void {
  const el = document.querySelectorAll<HTMLElement>(`[data-test="${test}"]`)[index]
  if (!el) throw new Error(`no ${test}`)
  el.click()
}

function errors(): string[] {
  return [...document.querySelectorAll('.el-form-item__error')].map((error) => error.textContent?.trim() ?? '')
}

function saveButton(): HTMLButtonElement {
  const button = [...document.querySelectorAll<HTMLButtonElement>('.el-dialog button')].find((b) => ['Create', 'Save'].includes(b.textContent?.trim() ?? ''))
  if (!button) throw new Error('no save button')
  return button
}

describe('ClaimEditorDialog', () => {
  beforeEach(() => {
    document.body.innerHTML = ''
    vi.mocked(createClaim).mockReset().mockResolvedValue(saved)
    vi.mocked(updateClaim).mockReset().mockResolvedValue(saved)
    vi.mocked(listAllClaims).mockReset().mockResolvedValue([])
    vi.mocked(fetchRequirementOptions).mockReset().mockResolvedValue([{ id: 'ar_1', identifier: 'V1.1', name: 'Encode output' }])
    vi.mocked(searchClaimEvidence).mockReset().mockResolvedValue([])
  })

  it('does not send a claim without name, target and predicate, and says what is missing', async () => {
    const wrapper = await open()
    saveButton().click()
    await settle()
    await vi.waitFor(() =>
      expect(errors()).toEqual(['Enter a name.', 'Choose an entity or describe the target.', 'Enter the predicate.']),
    )
    expect(createClaim).not.toHaveBeenCalled()
    wrapper.unmount()
  })

  it('creates a claim about the assessment’s entity, its target by default (issue 26 item 1)', async () => {
    const wrapper = await open({ defaultEntity: { id: 'en_1', name: 'Checkout service' } })
    expect(document.querySelector('[data-test="claim-editor"] .el-select')?.textContent).toContain('Checkout service')
    type('claim-name', 'Output is encoded')
    type('claim-predicate', 'encodes all output')
    await settle()
    saveButton().click()
    await settle()
    expect(errors()).toEqual([])
    expect(createClaim).toHaveBeenCalledWith('as_1', {
      name: 'Output is encoded',
      targetEntityId: 'en_1',
      predicate: 'encodes all output',
      requirementIds: ['ar_1'],
    })
    wrapper.unmount()
  })

  it('adds and removes reference rows, refuses a bad URL, and creates the claim', async () => {
    const wrapper = await open()
    type('claim-name', 'Output is encoded')
    click('target-text')
    await settle()
    type('claim-target', 'The checkout')
    type('claim-predicate', 'encodes all output')
    click('reference-add')
    click('reference-add')
    await settle()
    expect(document.querySelectorAll('[data-test="reference-row"]')).toHaveLength(2)
    click('reference-remove', 1)
    await settle()
    expect(document.querySelectorAll('[data-test="reference-row"]')).toHaveLength(1)

    type('reference-url', 'javascript:alert(1)')
    await settle()
    saveButton().click()
    await settle()
    await vi.waitFor(() => expect(errors()).toEqual(['Choose a type.', 'Enter an http or https address.']))
    expect(createClaim).not.toHaveBeenCalled()

    click('reference-remove')
    await settle()
    saveButton().click()
    await settle()
    expect(createClaim).toHaveBeenCalledWith('as_1', {
      name: 'Output is encoded',
      target: 'The checkout',
      predicate: 'encodes all output',
      requirementIds: ['ar_1'],
    })
    expect(wrapper.emitted('saved')).toEqual([[saved]])
    expect(wrapper.emitted('update:modelValue')?.at(-1)).toEqual([false])
    wrapper.unmount()
  })

  it('edits with the version and puts the server’s reference errors on their row', async () => {
    const claim: Claim = { ...saved, version: 7, externalReferences: [{ type: 'website', url: 'https://example.com' }] }
    vi.mocked(updateClaim).mockRejectedValue(
      new ApiError(400, 'validation_failed', 'The claim is invalid.', 'r1', [
        { field: 'externalReferences[0].url', code: 'unreachable', message: 'The host is not allowed.' },
      ]),
    )
    const wrapper = await open({ claim })
    expect(field('claim-name').value).toBe('Output is encoded')
    expect(document.querySelectorAll('[data-test="reference-row"]')).toHaveLength(1)
    type('claim-predicate', 'encodes every output')
    saveButton().click()
    await settle()
    expect(updateClaim).toHaveBeenCalledWith('cl_1', expect.objectContaining({ version: 7, predicate: 'encodes every output', target: 'The checkout' }))
    await vi.waitFor(() =>
      expect(document.querySelector('[data-test="reference-row"] .el-form-item__error')?.textContent?.trim()).toBe('The host is not allowed.'),
    )
    expect(wrapper.emitted('saved')).toBeUndefined()
    wrapper.unmount()
  })
})
