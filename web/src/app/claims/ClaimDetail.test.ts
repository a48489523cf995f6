import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { describe, expect, it } from 'vitest'
import { createAppI18n } from '../i18n'
import { usePreferencesStore } from '../preferences'
import { signedInAssessee } from '../session/fixtures'
import { useSessionStore } from '../session/store'
import ClaimDetail from './ClaimDetail.vue'
import type { Claim } from './types'

const claim: Claim = {
  id: 'cl_1',
  assessmentId: 'as_1',
  name: 'Output is encoded',
  target: 'The checkout',
  predicate: 'encodes all output',
  reasoning: '',
  isCounterClaim: false,
  evidence: [],
  counterEvidence: [],
  mitigationStrategies: [],
  requirementIds: [],
  externalReferences: [],
  version: 1,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
}

async function show(readOnly: boolean) {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale('en')
  useSessionStore().me = { ...signedInAssessee, permissions: ['claims.view', 'claims.edit'] }
  mount(ClaimDetail, {
    props: { modelValue: true, claim, readOnly },
    attachTo: document.body,
    global: { plugins: [pinia, createAppI18n('en')] },
  })
  await flushPromises()
}

describe('ClaimDetail', () => {
  it('offers edit and delete to holders of claims.edit while the assessment takes changes', async () => {
    await show(false)
    expect(document.body.querySelector('[data-test="claim-edit"]')).not.toBeNull()
    expect(document.body.querySelector('[data-test="claim-delete"]')).not.toBeNull()
    document.body.innerHTML = ''
  })

  it('offers neither on a read-only assessment (complete, archived, cancelled)', async () => {
    await show(true)
    expect(document.body.querySelector('[data-test="claim-kind"]')).not.toBeNull()
    expect(document.body.querySelector('[data-test="claim-edit"]')).toBeNull()
    expect(document.body.querySelector('[data-test="claim-delete"]')).toBeNull()
    document.body.innerHTML = ''
  })
})
