import { describe, expect, it, vi } from 'vitest'
import { api } from '../../api/client'
import { signedInAssessee } from '../../app/session/fixtures'
import { addSigningKey, deleteSigningKey, listSigningKeys, profileUpdate } from './api'

vi.mock('../../api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/client')>()
  return { ...actual, api: { GET: vi.fn(), POST: vi.fn(), DELETE: vi.fn(), PATCH: vi.fn() } }
})

const user = signedInAssessee.user

describe('profileUpdate', () => {
  it('sends only the changed display name with the version', () => {
    expect(profileUpdate(user, { displayName: 'Grace B. Hopper', email: user.email })).toEqual({
      version: user.version,
      displayName: 'Grace B. Hopper',
    })
  })

  it('sends only the changed e-mail address, trimmed, with the version', () => {
    expect(profileUpdate(user, { displayName: user.displayName, email: ' grace@navy.mil ' })).toEqual({
      version: user.version,
      email: 'grace@navy.mil',
    })
  })

  it('sends both when both changed', () => {
    expect(profileUpdate(user, { displayName: 'G. Hopper', email: 'g@example.com' })).toEqual({
      version: user.version,
      displayName: 'G. Hopper',
      email: 'g@example.com',
    })
  })

  it('is null when nothing changed but whitespace', () => {
    expect(profileUpdate(user, { displayName: ` ${user.displayName} `, email: user.email })).toBeNull()
  })
})

describe('signing keys', () => {
  const answer = (data: unknown, status = 200) => Promise.resolve({ data, response: new Response(null, { status }) })

  it('lists, adds and removes the signed-in user’s keys', async () => {
    const key = { kty: 'OKP', crv: 'Ed25519', x: 'eHg' }
    vi.mocked(api.GET).mockImplementation((() => answer({ items: null, heldKeysAvailable: false })) as never)
    vi.mocked(api.POST).mockImplementation((() => answer({ id: 'sk_1' }, 201)) as never)
    vi.mocked(api.DELETE).mockImplementation((() => answer(undefined, 204)) as never)
    expect(await listSigningKeys()).toEqual({ keys: [], heldKeysAvailable: false })
    await addSigningKey({ label: 'Laptop', algorithm: 'Ed25519', publicKey: key })
    await deleteSigningKey('sk_1')
    expect(api.GET).toHaveBeenCalledWith('/api/v1/me/signing-keys')
    expect(api.POST).toHaveBeenCalledWith('/api/v1/me/signing-keys', { body: { label: 'Laptop', algorithm: 'Ed25519', publicKey: key } })
    expect(api.DELETE).toHaveBeenCalledWith('/api/v1/me/signing-keys/{id}', { params: { path: { id: 'sk_1' } } })
  })
})
