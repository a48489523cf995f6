import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { createAppI18n } from '../../../app/i18n'
import { aReport } from '../fixtures'
import VerificationReport from './VerificationReport.vue'

function render(report = aReport()) {
  return mount(VerificationReport, { props: { report }, global: { plugins: [createAppI18n('en')] } })
}

describe('VerificationReport', () => {
  beforeEach(() => setActivePinia(createPinia()))

  it('gives a red verdict and names the object of the invalid signature, with its reason', () => {
    const wrapper = render()
    const verdict = wrapper.get('[data-test="report-verdict"]')
    expect(verdict.text()).toContain('The document does not verify')
    expect(verdict.text()).toContain('1 valid, 1 not pinned, 1 invalid')
    expect(wrapper.get('[data-test="verification-report"]').attributes('data-ok')).toBe('false')
    const rows = wrapper.findAll('[data-test="report-check"]')
    expect(rows.map((row) => row.attributes('data-status'))).toEqual(['valid', 'invalid', 'untrusted'])
    const invalid = rows[1]!
    expect(invalid.get('[data-test="check-object"]').text()).toBe('claim cl_9')
    expect(invalid.get('[data-test="check-status"]').text()).toBe('Invalid')
    expect(invalid.get('[data-test="check-reason"]').text()).toBe('signature does not verify')
    expect(invalid.text()).toContain('Platform · Ed25519')
    expect(invalid.text()).toContain('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k')
    expect(rows[2]!.get('[data-test="check-status"]').text()).toBe('Key not pinned')
  })

  it('gives a green verdict when every signature is valid, and shows rescission, expiry and problems', () => {
    const valid = aReport().checks!.map((check) => ({ ...check, status: 'valid' as const, reason: undefined }))
    expect(render(aReport({ ok: true, checks: valid })).get('[data-test="report-verdict"]').text()).toContain('Every signature is valid')

    const wrapper = render(
      aReport({
        rescinded: { attestationId: 'at_1', serialNumber: 'urn:uuid:x', reason: 'Wrong scope.', rescindedAt: '2026-04-01T08:00:00Z' },
        expired: true,
        validUntil: '2026-03-31',
        problems: ['declarations.signature is malformed'],
      }),
    )
    expect(wrapper.get('[data-test="report-rescinded"]').text()).toContain('Wrong scope.')
    expect(wrapper.get('[data-test="report-expired"]').text()).toContain('Mar 31, 2026')
    expect(wrapper.get('[data-test="report-problems"]').text()).toContain('malformed')
  })
})
