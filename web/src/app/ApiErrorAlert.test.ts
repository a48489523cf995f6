import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors'
import ApiErrorAlert from './ApiErrorAlert.vue'
import { createAppI18n } from './i18n'

function render(error: ApiError): string[] {
  const wrapper = mount(ApiErrorAlert, { props: { error, title: 'It failed' }, global: { plugins: [createAppI18n('en')] } })
  return wrapper.findAll('[data-test="api-error-detail"]').map((detail) => detail.text())
}

describe('ApiErrorAlert', () => {
  it('shows a hint of the server in words, without the field it names (issue 26 item 7)', () => {
    const error = new ApiError(422, 'business_rule_violation', 'The standards feed at cyclonedx.org could not be reached: the name does not resolve.', 'rq_1', [
      { field: 'feed', code: 'feed_unreachable', message: 'Standards can also be imported from a CycloneDX file upload.' },
    ])
    expect(render(error)).toEqual(['Standards can also be imported from a CycloneDX file upload.'])
  })

  it('names the field of each problem of a request found invalid', () => {
    const error = new ApiError(400, 'validation_failed', 'The request is invalid.', 'rq_1', [{ field: 'name', code: 'required', message: 'Enter a name.' }])
    expect(render(error)).toEqual(['name: Enter a name.'])
  })

  it('leaves out a detail that repeats the message', () => {
    const error = new ApiError(422, 'business_rule_violation', 'Not a BOM.', 'rq_1', [{ field: '/', code: 'not_cyclonedx', message: 'Not a BOM.' }])
    expect(render(error)).toEqual([])
  })

  it('leaves out a hint the message already names, such as a refused file type', () => {
    const error = new ApiError(415, 'unsupported_media_type', 'Files of type application/x-executable cannot be attached (active content and executables are refused).', 'rq_1', [
      { field: 'file', code: 'unsupported_type', message: 'application/x-executable' },
    ])
    expect(render(error)).toEqual([])
  })
})
