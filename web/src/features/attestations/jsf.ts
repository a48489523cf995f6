// Digital signatures made in the browser: the signatory's key is generated or imported
// here and never sent anywhere. The signature is a JSON Signature Format (JSF) signer
// object over the frozen statement's `declarations`, exactly as the server checks it
// (pkg/attest AddDigitalSignature): the declarations with `signature` replaced by
// {signers: [{algorithm, publicKey}]}, canonicalised with RFC 8785 (JCS), signed as UTF-8.

/** SigningAlgorithm is a JSF algorithm the browser signs with. */
export type SigningAlgorithm = 'Ed25519' | 'ES256'

/** PublicJwk is the public half of a signing key as JSF embeds it. */
export type PublicJwk = { kty: 'OKP'; crv: 'Ed25519'; x: string } | { kty: 'EC'; crv: 'P-256'; x: string; y: string }

/** SigningKey is a key pair held only in the page, with its JSF algorithm and public JWK. */
export interface SigningKey {
  algorithm: SigningAlgorithm
  privateKey: CryptoKey
  publicJwk: PublicJwk
  /** thumbprint is the RFC 7638 SHA-256 thumbprint of the public key (base64url), the key id the server shows. */
  thumbprint: string
}

/** JsfSigner is the signer object posted as `digital.signer`. */
export interface JsfSigner {
  algorithm: SigningAlgorithm
  publicKey: PublicJwk
  value: string
}

/** JsonValue is what JSON.parse returns. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }

/**
 * canonicalize serialises a JSON value as RFC 8785 (JCS) does: object members sorted by
 * their names' UTF-16 code units (JavaScript's default string order), numbers in
 * ECMAScript's shortest form, strings escaped as JSON.stringify does, no white space.
 */
export function canonicalize(value: JsonValue): string {
  if (value === null || typeof value === 'boolean') return String(value)
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('JCS cannot represent NaN or Infinity')
    return Object.is(value, -0) ? '0' : String(value)
  }
  if (typeof value === 'string') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(canonicalize).join(',')}]`
  const names = Object.keys(value).sort()
  return `{${names.map((name) => `${JSON.stringify(name)}:${canonicalize(value[name] as JsonValue)}`).join(',')}}`
}

/** base64url encodes bytes as base64url without padding (RFC 7515). */
export function base64url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** fromBase64url decodes base64url (padding optional). */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/')
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))
  return Uint8Array.from(binary, (char) => char.charCodeAt(0))
}

function subtle(): SubtleCrypto {
  if (!globalThis.crypto?.subtle) throw new Error('This browser offers no WebCrypto (it needs a secure context: https or localhost).')
  return globalThis.crypto.subtle
}

const KEY_PARAMS: Record<SigningAlgorithm, EcKeyImportParams | Algorithm> = {
  Ed25519: { name: 'Ed25519' },
  ES256: { name: 'ECDSA', namedCurve: 'P-256' },
}

const SIGN_PARAMS: Record<SigningAlgorithm, AlgorithmIdentifier | EcdsaParams> = {
  Ed25519: { name: 'Ed25519' },
  ES256: { name: 'ECDSA', hash: 'SHA-256' },
}

/** publicJwkOf keeps only the public members JSF and RFC 7638 use. */
export function publicJwkOf(jwk: JsonWebKey): PublicJwk {
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && jwk.x) return { kty: 'OKP', crv: 'Ed25519', x: jwk.x }
  if (jwk.kty === 'EC' && jwk.crv === 'P-256' && jwk.x && jwk.y) return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }
  throw new Error('Only Ed25519 (OKP) and P-256 (EC) keys can sign.')
}

/** algorithmOf is the JSF algorithm of a public key. */
export function algorithmOf(jwk: PublicJwk): SigningAlgorithm {
  return jwk.kty === 'OKP' ? 'Ed25519' : 'ES256'
}

/** thumbprint is the RFC 7638 thumbprint of a public key: SHA-256 of its required members, JCS-ordered. */
export async function thumbprint(jwk: PublicJwk): Promise<string> {
  const digest = await subtle().digest('SHA-256', new TextEncoder().encode(canonicalize({ ...jwk })))
  return base64url(new Uint8Array(digest))
}

async function keyFromPair(algorithm: SigningAlgorithm, pair: CryptoKeyPair): Promise<SigningKey> {
  const publicJwk = publicJwkOf(await subtle().exportKey('jwk', pair.publicKey))
  return { algorithm, privateKey: pair.privateKey, publicJwk, thumbprint: await thumbprint(publicJwk) }
}

/**
 * generateSigningKey makes a new extractable key pair in the page: Ed25519 where the browser
 * has it, else ECDSA P-256 (ES256). `prefer` forces one (for tests).
 */
export async function generateSigningKey(prefer?: SigningAlgorithm): Promise<SigningKey> {
  const order: SigningAlgorithm[] = prefer ? [prefer] : ['Ed25519', 'ES256']
  let lastError: unknown = null
  for (const algorithm of order) {
    try {
      const pair = (await subtle().generateKey(KEY_PARAMS[algorithm], true, ['sign', 'verify'])) as CryptoKeyPair
      return await keyFromPair(algorithm, pair)
    } catch (cause) {
      lastError = cause
    }
  }
  throw lastError instanceof Error ? lastError : new Error('The browser cannot generate a signing key.')
}

/** importSigningKey reads a private JWK (with `d`), as exportPrivateJwk writes it. */
export async function importSigningKey(text: string): Promise<SigningKey> {
  let jwk: JsonWebKey
  try {
    jwk = JSON.parse(text) as JsonWebKey
  } catch {
    throw new Error('The file is not JSON.')
  }
  if (typeof jwk !== 'object' || jwk === null || !jwk.d) throw new Error('The file holds no private key (a JWK with "d").')
  const publicJwk = publicJwkOf(jwk)
  const algorithm = algorithmOf(publicJwk)
  const privateJwk: JsonWebKey = { ...publicJwk, d: jwk.d }
  const privateKey = await subtle().importKey('jwk', privateJwk, KEY_PARAMS[algorithm], true, ['sign'])
  return { algorithm, privateKey, publicJwk, thumbprint: await thumbprint(publicJwk) }
}

/** exportPrivateJwk is the key as a JWK file for the signatory to keep (it holds the private key). */
export async function exportPrivateJwk(key: SigningKey): Promise<string> {
  const jwk = await subtle().exportKey('jwk', key.privateKey)
  const { kty, crv, x, y, d } = jwk
  return JSON.stringify({ kty, crv, x, ...(y ? { y } : {}), d, alg: key.algorithm, kid: key.thumbprint }, null, 2)
}

/**
 * signingInput is the canonical form of the statement's declarations with `signer` (no
 * value yet) as the only signer: what the signature covers.
 */
export function signingInput(frozen: JsonValue, signer: Omit<JsfSigner, 'value'>): string {
  if (typeof frozen !== 'object' || frozen === null || Array.isArray(frozen)) throw new Error('The statement is not a JSON object.')
  const declarations = frozen.declarations
  if (typeof declarations !== 'object' || declarations === null || Array.isArray(declarations)) {
    throw new Error('The statement has no declarations to sign.')
  }
  const { signature: _others, ...rest } = declarations
  return canonicalize({ ...rest, signature: { signers: [{ algorithm: signer.algorithm, publicKey: { ...signer.publicKey } }] } })
}

/** signStatement signs the frozen statement (its JSON text) with key and returns the JSF signer object. */
export async function signStatement(frozenText: string, key: SigningKey): Promise<JsfSigner> {
  const frozen = JSON.parse(frozenText) as JsonValue
  const unsigned = { algorithm: key.algorithm, publicKey: key.publicJwk }
  const data = new TextEncoder().encode(signingInput(frozen, unsigned))
  const signature = await subtle().sign(SIGN_PARAMS[key.algorithm], key.privateKey, data)
  return { ...unsigned, value: base64url(new Uint8Array(signature)) }
}

/** verifySigner checks a signer object over the frozen statement with its embedded key (for tests and a last check). */
export async function verifySigner(frozenText: string, signer: JsfSigner): Promise<boolean> {
  const frozen = JSON.parse(frozenText) as JsonValue
  const data = new TextEncoder().encode(signingInput(frozen, signer))
  const publicKey = await subtle().importKey('jwk', { ...signer.publicKey }, KEY_PARAMS[signer.algorithm], false, ['verify'])
  return subtle().verify(SIGN_PARAMS[signer.algorithm], publicKey, fromBase64url(signer.value), data)
}
