import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../api/errors'
import { createAppI18n } from '../../../app/i18n'
import { usePreferencesStore } from '../../../app/preferences'
import { settle } from '../../../app/testing'
import { createMemoryHistory, createRouter } from 'vue-router'
import { importAttestation } from '../api'
import type { AttestationImport } from '../types'
import ImportAttestationDialog from './ImportAttestationDialog.vue'

vi.mock('../api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api')>()),
  importAttestation: vi.fn(),
}))

const COUNTS = { standards: 0, requirements: 0, entities: 0, assessors: 0, assessments: 0, evidence: 0, claims: 0, attestations: 0 }

function aReport(over: Partial<AttestationImport> = {}): AttestationImport {
  return {
    id: '',
    dryRun: true,
    alreadyImported: false,
    serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
    docVersion: 1,
    specVersion: '1.6',
    sha256: 'f'.repeat(64),
    source: 'upload',
    filename: 'attestation.json',
    assessmentId: '',
    attestationId: '',
    created: { ...COUNTS, standards: 1, requirements: 1, evidence: 3, claims: 1, assessments: 1, attestations: 1 },
    linked: { ...COUNTS, entities: 1 },
    records: [],
    repairs: [{ pointer: '/declarations/attestations/0/map/0/counterClaims/0', code: 'dangling_reference', message: 'No claim "counterClaim-1" is declared.' }],
    signatures: { state: 'absent', sealed: false, checks: [], trustedKeys: 0 },
    importedBy: { id: 'u_1', username: 'admin', displayName: 'Ada Admin' },
    createdAt: '2026-11-28T08:00:00Z',
    ...over,
  }
}

async function open() {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale('en')
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/attestations/:id', name: 'attestation', component: { template: '<div />' } }] })
  const wrapper = mount(ImportAttestationDialog, { props: { modelValue: false }, attachTo: document.body, global: { plugins: [pinia, router, createAppI18n('en')] } })
  await wrapper.setProps({ modelValue: true })
  await settle()
  return wrapper
}

function byTest(name: string): HTMLElement {
  const found = document.body.querySelector<HTMLElement>(`[data-test="${name}"]`)
  if (!found) throw new Error(`no ${name}`)
  return found
}

async function chooseFile(): Promise<void> {
  const input = byTest('import-file') as HTMLInputElement
  Object.defineProperty(input, 'files', { value: [new File(['{}'], 'attestation.json', { type: 'application/json' })], configurable: true })
  input.dispatchEvent(new Event('change'))
  await settle()
}

describe('ImportAttestationDialog', () => {
  beforeEach(() => vi.mocked(importAttestation).mockReset())
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('checks first, shows the report, then imports for real', async () => {
    const wrapper = await open()
    expect((byTest('import-confirm') as HTMLButtonElement).disabled).toBe(true)
    await chooseFile()
    vi.mocked(importAttestation).mockResolvedValueOnce(aReport())
    byTest('import-check').click()
    await settle()
    expect(vi.mocked(importAttestation).mock.calls[0]?.[0]).toMatchObject({ dryRun: true, fileName: 'attestation.json' })
    expect(byTest('import-report').textContent).toContain('counterClaim-1')
    expect(byTest('created-evidence').textContent).toBe('3')
    expect(byTest('signature-verdict').dataset.verdict).toBe('absent')
    vi.mocked(importAttestation).mockResolvedValueOnce(aReport({ dryRun: false, id: 'ai_1', attestationId: 'at_1' }))
    expect((byTest('import-confirm') as HTMLButtonElement).disabled).toBe(false)
    byTest('import-confirm').click()
    await settle()
    expect(vi.mocked(importAttestation).mock.calls[1]?.[0]).toMatchObject({ dryRun: false })
    expect(wrapper.emitted('imported')?.[0]?.[0]).toMatchObject({ attestationId: 'at_1' })
  })

  it('offers no import of a document imported before', async () => {
    await open()
    await chooseFile()
    vi.mocked(importAttestation).mockResolvedValueOnce(aReport({ alreadyImported: true, attestationId: 'at_9' }))
    byTest('import-check').click()
    await settle()
    expect(byTest('import-already')).toBeTruthy()
    expect((byTest('import-confirm') as HTMLButtonElement).disabled).toBe(true)
    expect(byTest('import-open-existing')).toBeTruthy()
  })

  it('keeps a refusal on the tab it came from and checks the keys before sending', async () => {
    await open()
    await chooseFile()
    vi.mocked(importAttestation).mockRejectedValueOnce(
      new ApiError(422, 'business_rule_violation', 'The document breaks the 1.6 schema.', 'r1', [{ field: '/declarations', code: 'schema_invalid', message: 'bad' }]),
    )
    byTest('import-check').click()
    await flushPromises()
    await settle()
    expect(document.body.textContent).toContain('The document breaks the 1.6 schema.')
    const jwks = byTest('import-jwks') as HTMLTextAreaElement
    jwks.value = '{not json'
    jwks.dispatchEvent(new Event('input'))
    await settle()
    expect(byTest('import-jwks-problem').textContent).toContain('not JSON')
    expect((byTest('import-check') as HTMLButtonElement).disabled).toBe(true)
  })
})
