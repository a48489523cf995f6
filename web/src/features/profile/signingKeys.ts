import type { NewSigningKey } from './api'

// The public signing keys a user adds to their profile: reading a JWK pasted or chosen
// as a file, refusing one that holds a private key before anything is sent, and
// deriving the JSF algorithm the server records with it.

/** SigningAlgorithm is an algorithm the server accepts for a signing key. */
export type SigningAlgorithm = NewSigningKey['algorithm']

/** RSA_ALGORITHMS are the algorithms an RSA key may sign with; the first is the default. */
export const RSA_ALGORITHMS = ['PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512'] as const satisfies readonly SigningAlgorithm[]

/** RsaAlgorithm is one of RSA_ALGORITHMS. */
export type RsaAlgorithm = (typeof RSA_ALGORITHMS)[number]

/**
 * PRIVATE_MEMBERS are the JWK members that belong to a private or symmetric key
 * (RFC 7518 §6.2.2, §6.3.2, §6.4.1): a public key carries none of them.
 */
export const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const

const EC_ALGORITHMS: Record<string, SigningAlgorithm> = { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' }

/** JwkProblem says why a text is not a public key the profile can take. */
export type JwkProblem = 'notJson' | 'notObject' | 'keySet' | 'private' | 'unsupported'

/**
 * PublicJwk is a public key read from a JWK: the key as given, and its algorithm,
 * fixed by the key for Ed25519 and EC keys, chosen by the user for RSA (`'RSA'`).
 */
export interface PublicJwk {
  jwk: Record<string, unknown>
  algorithm: Exclude<SigningAlgorithm, RsaAlgorithm> | 'RSA'
  /** rsaDefault is the RSA algorithm to offer first: the key's own `alg` if it names one, else PS256. */
  rsaDefault: RsaAlgorithm
}

/** JwkReading is a PublicJwk, or the problem with the text and the private members found. */
export type JwkReading = { ok: true; key: PublicJwk } | { ok: false; problem: JwkProblem; members: string[] }

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value !== ''
}

function refuse(problem: JwkProblem, members: string[] = []): JwkReading {
  return { ok: false, problem, members }
}

/** privateMembersOf lists the private-key members a JWK carries, in PRIVATE_MEMBERS order. */
export function privateMembersOf(jwk: Record<string, unknown>): string[] {
  return PRIVATE_MEMBERS.filter((name) => Object.hasOwn(jwk, name))
}

/** isRsaAlgorithm reports whether `value` is one of RSA_ALGORITHMS. */
export function isRsaAlgorithm(value: unknown): value is RsaAlgorithm {
  return (RSA_ALGORITHMS as readonly unknown[]).includes(value)
}

/**
 * readPublicJwk reads the text of one JWK. It refuses text that is not a JSON object, a
 * key set, any key with a private member, and keys the server cannot take: only OKP
 * Ed25519, EC P-256/384/521 and RSA (the server checks the RSA key's size).
 */
export function readPublicJwk(text: string): JwkReading {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return refuse('notJson')
  }
  if (!isObject(value)) return refuse('notObject')
  if (Array.isArray(value.keys)) return refuse('keySet')
  const members = privateMembersOf(value)
  if (members.length > 0) return refuse('private', members)
  const rsaDefault = isRsaAlgorithm(value.alg) ? value.alg : RSA_ALGORITHMS[0]
  const found = (algorithm: PublicJwk['algorithm']): JwkReading => ({ ok: true, key: { jwk: value, algorithm, rsaDefault } })
  if (value.kty === 'OKP' && value.crv === 'Ed25519' && isText(value.x)) return found('Ed25519')
  if (value.kty === 'EC' && typeof value.crv === 'string' && isText(value.x) && isText(value.y)) {
    const algorithm = EC_ALGORITHMS[value.crv]
    if (algorithm) return found(algorithm as PublicJwk['algorithm'])
  }
  if (value.kty === 'RSA' && isText(value.n) && isText(value.e)) return found('RSA')
  return refuse('unsupported')
}

/** newSigningKey is the body that adds `key` under `label`, with `rsa` as the algorithm of an RSA key. */
export function newSigningKey(label: string, key: PublicJwk, rsa: RsaAlgorithm): NewSigningKey {
  return { label: label.trim(), algorithm: key.algorithm === 'RSA' ? rsa : key.algorithm, publicKey: key.jwk }
}
