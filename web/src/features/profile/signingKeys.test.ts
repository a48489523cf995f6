import { describe, expect, it } from 'vitest'
import { newSigningKey, readPublicJwk, type JwkReading } from './signingKeys'

const ed25519 = { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }
const ec = (crv: string) => ({ kty: 'EC', crv, x: 'eHg', y: 'eXk' })
const rsa = { kty: 'RSA', n: 'sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1Wl', e: 'AQAB' }

function read(value: unknown): JwkReading {
  return readPublicJwk(typeof value === 'string' ? value : JSON.stringify(value))
}

describe('readPublicJwk', () => {
  it.each([
    ['an Ed25519 key', ed25519, 'Ed25519'],
    ['an EC P-256 key', ec('P-256'), 'ES256'],
    ['an EC P-384 key', ec('P-384'), 'ES384'],
    ['an EC P-521 key', ec('P-521'), 'ES512'],
    ['an RSA key', rsa, 'RSA'],
  ])('reads %s as %s', (_name, jwk, algorithm) => {
    const reading = read(jwk)
    expect(reading.ok && reading.key.algorithm).toBe(algorithm)
  })

  it('offers PS256 for an RSA key unless its alg names another RSA algorithm', () => {
    const plain = read(rsa)
    const rs384 = read({ ...rsa, alg: 'RS384' })
    const odd = read({ ...rsa, alg: 'HS256' })
    expect([plain, rs384, odd].map((reading) => reading.ok && reading.key.rsaDefault)).toEqual(['PS256', 'RS384', 'PS256'])
  })

  it.each([
    ['d', { ...ed25519, d: 'secret' }, ['d']],
    ['the RSA private members', { ...rsa, d: '1', p: '2', q: '3', dp: '4', dq: '5', qi: '6' }, ['d', 'p', 'q', 'dp', 'dq', 'qi']],
    ['oth', { ...rsa, oth: [] }, ['oth']],
    ['a symmetric k', { kty: 'oct', k: 'c2VjcmV0' }, ['k']],
  ])('refuses a key with %s', (_name, jwk, members) => {
    expect(read(jwk)).toEqual({ ok: false, problem: 'private', members })
  })

  it.each([
    ['text that is not JSON', '{"kty": "OKP",', 'notJson'],
    ['a JSON array', [ed25519], 'notObject'],
    ['a JSON string', '"OKP"', 'notObject'],
    ['a key set', { keys: [ed25519] }, 'keySet'],
    ['an X25519 key', { kty: 'OKP', crv: 'X25519', x: 'eHg' }, 'unsupported'],
    ['an EC key on secp256k1', ec('secp256k1'), 'unsupported'],
    ['an EC key without y', { kty: 'EC', crv: 'P-256', x: 'eHg' }, 'unsupported'],
    ['an RSA key without its exponent', { kty: 'RSA', n: rsa.n }, 'unsupported'],
  ])('refuses %s', (_name, value, problem) => {
    expect(read(value)).toEqual({ ok: false, problem, members: [] })
  })
})

describe('newSigningKey', () => {
  it('sends the trimmed label, the key as given and its algorithm', () => {
    const reading = read(ec('P-384'))
    if (!reading.ok) throw new Error('not read')
    expect(newSigningKey(' Token ', reading.key, 'PS256')).toEqual({ label: 'Token', algorithm: 'ES384', publicKey: ec('P-384') })
  })

  it('sends the chosen algorithm for an RSA key', () => {
    const reading = read(rsa)
    if (!reading.ok) throw new Error('not read')
    expect(newSigningKey('HSM', reading.key, 'RS512')).toEqual({ label: 'HSM', algorithm: 'RS512', publicKey: rsa })
  })
})
