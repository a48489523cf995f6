import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../api/errors'
import { createAppI18n } from '../../../app/i18n'
import { changeMap, listMap } from '../api'
import { aMapEntry, anAttestation } from '../fixtures'
import MapTab from './MapTab.vue'

vi.mock('../api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api')>()),
  listMap: vi.fn(),
  changeMap: vi.fn(),
}))

const partial = aMapEntry({ id: 'ar_2', identifier: 'V1.1.2', name: 'Escape input', result: 'partial', derivedScore: 0.5, score: 0.5, claimIds: [], counterClaimIds: ['cl_2'] })

async function mountTab(editable: boolean) {
  const pinia = createPinia()
  setActivePinia(pinia)
  const wrapper = mount(MapTab, {
    attachTo: document.body,
    props: { attestation: anAttestation({ version: 7 }), editable },
    global: { plugins: [pinia, createAppI18n('en')] },
  })
  await flushPromises()
  return wrapper
}

function numberInput(wrapper: ReturnType<typeof mount>, row: number, test: string) {
  const inputs = wrapper.findAll('[data-test="map-row"]')[row]!.findAllComponents({ name: 'ElInputNumber' })
  return inputs[test === 'map-override' ? 0 : 1]!
}

describe('MapTab', () => {
  beforeEach(() => {
    vi.mocked(listMap).mockReset().mockResolvedValue([aMapEntry(), partial])
    vi.mocked(changeMap).mockReset()
    document.body.innerHTML = ''
  })

  it('shows each requirement with its result, derived and effective score, and claim counts', async () => {
    const wrapper = await mountTab(false)
    const rows = wrapper.findAll('[data-test="map-row"]')
    expect(rows).toHaveLength(2)
    expect(rows[1]!.text()).toContain('V1.1.2')
    expect(rows[1]!.text()).toContain('Partial')
    expect(rows[1]!.get('[data-test="map-derived"]').text()).toBe('50 %')
    expect(rows[1]!.get('[data-test="map-claims"]').text()).toBe('0 for · 1 against')
    expect(wrapper.find('[data-test="map-override"]').exists()).toBe(false)
    wrapper.unmount()
  })

  it('saves an override and a confidence as fractions, with the version, for the changed requirement only', async () => {
    vi.mocked(changeMap).mockResolvedValue([aMapEntry(), { ...partial, scoreOverride: 0.75, score: 0.75, confidence: 0.8, confidenceRationale: 'Pen test' }])
    const wrapper = await mountTab(true)
    numberInput(wrapper, 1, 'map-override').vm.$emit('update:modelValue', 75)
    await flushPromises()
    expect(wrapper.findAll('[data-test="map-score"]')[1]!.text()).toBe('75 %')
    numberInput(wrapper, 1, 'map-confidence').vm.$emit('update:modelValue', 80)
    await flushPromises()
    await wrapper.findAll('[data-test="map-row"]')[1]!.get('input[data-test="map-rationale"]').setValue('Pen test ')
    expect(wrapper.get('[data-test="map-savebar"]').text()).toContain('One unsaved change')
    await wrapper.get('[data-test="map-save"]').trigger('click')
    await flushPromises()
    expect(changeMap).toHaveBeenCalledWith('at_1', 7, [{ id: 'ar_2', scoreOverride: 0.75, confidence: 0.8, confidenceRationale: 'Pen test' }])
    expect(wrapper.emitted('saved')).toHaveLength(1)
    expect(wrapper.find('[data-test="map-savebar"]').exists()).toBe(false)
    wrapper.unmount()
  })

  it('clears an override with null and shows a version conflict with a reload', async () => {
    vi.mocked(listMap).mockResolvedValue([aMapEntry({ scoreOverride: 0.2, score: 0.2 })])
    vi.mocked(changeMap).mockRejectedValue(new ApiError(409, 'version_conflict', 'Changed meanwhile.', 'r1'))
    const wrapper = await mountTab(true)
    numberInput(wrapper, 0, 'map-override').vm.$emit('update:modelValue', null)
    await flushPromises()
    await wrapper.get('[data-test="map-save"]').trigger('click')
    await flushPromises()
    expect(changeMap).toHaveBeenCalledWith('at_1', 7, [{ id: 'ar_1', scoreOverride: null, confidence: null, confidenceRationale: '' }])
    expect(wrapper.text()).toContain('The attestation changed meanwhile')
    wrapper.unmount()
  })
})
