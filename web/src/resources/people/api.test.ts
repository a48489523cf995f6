import { beforeEach, describe, expect, it, vi } from 'vitest'
import { api } from '../../api/client'
import { PEOPLE_LIMIT, peopleSearch, searchPeople } from './api'

vi.mock('../../api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/client')>()
  return { ...actual, api: { GET: vi.fn() } }
})

const ada = { id: 'u_ada', username: 'ada', displayName: 'Ada Lovelace' }
const bob = { id: 'u_bob', username: 'bob', displayName: '' }

describe('the people directory', () => {
  const get = vi.mocked(api.GET)

  beforeEach(() => {
    get.mockReset()
    get.mockImplementation((() => Promise.resolve({ data: { items: [ada, bob] }, response: new Response(null, { status: 200 }) })) as never)
  })

  it('searches by prefix and permission, leaving out what is blank', async () => {
    expect(await searchPeople('  ad ', 'assessments.edit')).toEqual([ada, bob])
    expect(get).toHaveBeenLastCalledWith('/api/v1/people', { params: { query: { q: 'ad', permission: 'assessments.edit', limit: PEOPLE_LIMIT } } })
    await searchPeople('', undefined, 50)
    expect(get).toHaveBeenLastCalledWith('/api/v1/people', { params: { query: { limit: 50 } } })
  })

  it('offers picker choices named by display name, else username, without the excluded', async () => {
    const search = peopleSearch('evidence.review', () => ['u_ada'])
    expect(await search('')).toEqual([{ value: 'u_bob', label: 'bob', hint: 'bob' }])
    expect(get).toHaveBeenLastCalledWith('/api/v1/people', { params: { query: { permission: 'evidence.review', limit: PEOPLE_LIMIT } } })
  })
})
