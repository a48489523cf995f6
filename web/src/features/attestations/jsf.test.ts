import { describe, expect, it } from 'vitest'
import {
  base64url,
  canonicalize,
  exportPrivateJwk,
  fromBase64url,
  generateSigningKey,
  importSigningKey,
  signingInput,
  signStatement,
  thumbprint,
  verifySigner,
  type JsonValue,
} from './jsf'

// A frozen statement as the server hands it out: declarations with the platform's
// signatures on its objects and another signatory's signature already in place.
const FROZEN = JSON.stringify({
  bomFormat: 'CycloneDX',
  specVersion: '1.7',
  serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
  declarations: {
    assessors: [{ 'bom-ref': 'ao_1', thirdParty: false, organization: { name: 'Acme Assurance' } }],
    attestations: [{ summary: 'Payments at ASVS L1 – grün ✓', map: [{ requirement: 'rq_1', conformance: { score: 0.5, rationale: '' } }], signature: { algorithm: 'Ed25519', value: 'AAAA' } }],
    affirmation: { statement: 'We affirm.', signatories: [{ name: 'Lead assessor' }] },
    signature: { signers: [{ algorithm: 'ES256', publicKey: { kty: 'EC', crv: 'P-256', x: 'a', y: 'b' }, value: 'other' }] },
  },
})

describe('canonicalize (RFC 8785)', () => {
  it('writes the example of RFC 8785 section 3.2.2', () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
        '"string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    ) as JsonValue
    expect(canonicalize(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    )
  })

  it('sorts member names by UTF-16 code units, non-BMP characters included (section 3.2.3)', () => {
    const input = JSON.parse(
      '{"\\u20ac": "Euro Sign", "\\r": "Carriage Return", "\\ufb33": "Hebrew Letter Dalet With Dagesh", "1": "One",' +
        '"\\ud83d\\ude00": "Emoji: Grinning Face", "\\u0080": "Control", "\\u00f6": "Latin Small Letter O With Diaeresis"}',
    ) as Record<string, JsonValue>
    // Read the order from the text: JSON.parse would put the integer-like "1" first.
    const names = [...canonicalize(input).matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((match) => JSON.parse(`"${match[1]}"`) as string)
    expect(names).toEqual(['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'])
  })

  it('writes numbers in ECMAScript form: 1e21 is 1e+21 and -0 is 0', () => {
    expect(canonicalize([1e21, -0, 0, 1e-7, 100, 0.1, 9007199254740991])).toBe('[1e+21,0,0,1e-7,100,0.1,9007199254740991]')
    expect(() => canonicalize(Number.NaN)).toThrow()
  })

  it('keeps empty objects and arrays and escapes control characters only', () => {
    expect(canonicalize({ b: [], a: {}, c: 'ä\u001f"' })).toBe('{"a":{},"b":[],"c":"ä\\u001f\\""}')
  })
})

describe('base64url', () => {
  it('round-trips without padding', () => {
    const bytes = Uint8Array.from([0xfb, 0xff, 0x00, 0x10])
    expect(base64url(bytes)).toBe('-_8AEA')
    expect([...fromBase64url('-_8AEA')]).toEqual([...bytes])
  })
})

describe('signing the frozen statement', () => {
  it('covers the declarations with this signer only, in place of the signatures there', () => {
    const input = signingInput(JSON.parse(FROZEN) as JsonValue, { algorithm: 'Ed25519', publicKey: { kty: 'OKP', crv: 'Ed25519', x: 'xx' } })
    expect(input.startsWith('{"affirmation":')).toBe(true)
    expect(input).toContain('"signature":{"signers":[{"algorithm":"Ed25519","publicKey":{"crv":"Ed25519","kty":"OKP","x":"xx"}}]}}')
    expect(input).not.toContain('other')
    expect(input).toContain('"signature":{"algorithm":"Ed25519","value":"AAAA"}') // an attestation's own signature stays
  })

  for (const algorithm of ['Ed25519', 'ES256'] as const) {
    it(`signs with a generated ${algorithm} key, and the signature verifies`, async () => {
      const key = await generateSigningKey(algorithm)
      const signer = await signStatement(FROZEN, key)
      expect(signer.algorithm).toBe(algorithm)
      expect(signer.publicKey).toEqual(key.publicJwk)
      expect(signer.value).toMatch(/^[A-Za-z0-9_-]+$/)
      expect(fromBase64url(signer.value).length).toBe(64) // Ed25519, and ES256 as raw r‖s
      expect(await verifySigner(FROZEN, signer)).toBe(true)
      const changed = FROZEN.replace('We affirm.', 'We affirm!')
      expect(await verifySigner(changed, signer)).toBe(false)
    })
  }

  it('exports the key for the signatory to keep and imports it again', async () => {
    const key = await generateSigningKey('ES256')
    const file = await exportPrivateJwk(key)
    expect(JSON.parse(file)).toMatchObject({ kty: 'EC', crv: 'P-256', kid: key.thumbprint })
    const again = await importSigningKey(file)
    expect(again.thumbprint).toBe(key.thumbprint)
    expect(await verifySigner(FROZEN, await signStatement(FROZEN, again))).toBe(true)
    await expect(importSigningKey(JSON.stringify(key.publicJwk))).rejects.toThrow('no private key')
    await expect(importSigningKey('nope')).rejects.toThrow('not JSON')
  })

  it('computes the RFC 7638 thumbprint (its section 3.1 example)', async () => {
    // RFC 8037 appendix A.3: the thumbprint of the Ed25519 example key.
    const jwk = { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' } as const
    expect(await thumbprint(jwk)).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k')
  })
})
