#!/usr/bin/env node
// jsf-verify.mjs verifies every JSON Signature Format (JSF 0.82) signature of a JSON
// document with code that is not Assay's: Node's crypto and the npm package canonicalize
// (RFC 8785, by one of its authors). It is written from the JSF specification
// (https://cyberphone.github.io/doc/security/jsf.html), not from pkg/jsf.
//
//   node jsf-verify.mjs [--property NAME] [--keys FILE]... FILE
//
// A signature is the value of a property called "signature" (or NAME) that is an object with
// "algorithm", "signers" or "chain". For each signer the signed data is the JCS form of the
// object enclosing the signature in which the signature property holds:
//   - a single signature: the signature object without its "value";
//   - "signers" (independent signers): the wrapper with that one signer, value removed, as
//     the only element (the other signers are removed);
//   - "chain": the signers before it, values included, then it without its value.
// Properties of the enclosing object named by "excludes" are left out, and so is "excludes"
// itself (JSF: "the excludes property itself, must also be excluded from the signature
// process"); "extensions" need no special treatment (their properties are signed like the
// others).
//
// The key is the embedded "publicKey" (a JWK), or the key whose "kid" is the signature's
// "keyId" among the JWK/JWKS files given with --keys.
//
// It prints [{pointer, property, form, index, algorithm, keyId, thumbprint, valid, reason}]
// as JSON (index is null for a single signature; thumbprint is the RFC 7638 SHA-256
// thumbprint of the key used) and exits 0 when at least one signature was found and every
// one is valid, 1 otherwise, 2 when the input cannot be read.
import crypto from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import canonicalize from 'canonicalize'

const MAX_BYTES = 64 * 1024 * 1024

// The JSF algorithms (JWA names, RFC 8037 for Ed25519) and how Node checks them.
const ALGORITHMS = {
  ES256: { family: 'ec', hash: 'sha256', curve: 'prime256v1' },
  ES384: { family: 'ec', hash: 'sha384', curve: 'secp384r1' },
  ES512: { family: 'ec', hash: 'sha512', curve: 'secp521r1' },
  RS256: { family: 'rsa', hash: 'sha256' },
  RS384: { family: 'rsa', hash: 'sha384' },
  RS512: { family: 'rsa', hash: 'sha512' },
  PS256: { family: 'pss', hash: 'sha256', saltLength: 32 },
  PS384: { family: 'pss', hash: 'sha384', saltLength: 48 },
  PS512: { family: 'pss', hash: 'sha512', saltLength: 64 },
  Ed25519: { family: 'ed25519', hash: null }
}

const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k']

function fail (message) {
  process.stderr.write(`jsf-verify: ${message}\n`)
  process.exit(2)
}

function parseArgs (argv) {
  const opts = { property: 'signature', keyFiles: [], file: null }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--property' && i + 1 < argv.length) {
      opts.property = argv[++i]
    } else if (a === '--keys' && i + 1 < argv.length) {
      opts.keyFiles.push(argv[++i])
    } else if (a.startsWith('-') || opts.file !== null) {
      fail(`unexpected argument ${a}\nusage: node jsf-verify.mjs [--property NAME] [--keys FILE]... FILE`)
    } else {
      opts.file = a
    }
  }
  if (opts.file === null) {
    fail('usage: node jsf-verify.mjs [--property NAME] [--keys FILE]... FILE')
  }
  return opts
}

function readJSON (path) {
  let text
  try {
    if (statSync(path).size > MAX_BYTES) {
      fail(`${path}: larger than ${MAX_BYTES} bytes`)
    }
    text = readFileSync(path, 'utf8')
  } catch (err) {
    fail(`${path}: ${err.message}`)
  }
  try {
    return JSON.parse(text)
  } catch (err) {
    fail(`${path}: not JSON: ${err.message}`)
  }
}

// readKeys maps each kid of the JWK or JWKS files to its public key.
function readKeys (files) {
  const keys = new Map()
  for (const f of files) {
    const data = readJSON(f)
    for (const jwk of Array.isArray(data.keys) ? data.keys : [data]) {
      if (typeof jwk.kid !== 'string') {
        fail(`${f}: a key has no kid`)
      }
      try {
        keys.set(jwk.kid, crypto.createPublicKey({ key: jwk, format: 'jwk' }))
      } catch (err) {
        fail(`${f}: key ${jwk.kid}: ${err.message}`)
      }
    }
  }
  return keys
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)

const pointerToken = (name) => name.replaceAll('~', '~0').replaceAll('/', '~1')

function looksLikeSignature (v) {
  return isObject(v) && ('algorithm' in v || 'signers' in v || 'chain' in v)
}

// walk visits every object and verifies the signatures it holds; the signature property
// itself is not searched.
function walk (value, pointer, opts, out) {
  if (Array.isArray(value)) {
    value.forEach((child, i) => walk(child, `${pointer}/${i}`, opts, out))
    return
  }
  if (!isObject(value)) {
    return
  }
  const signed = Object.hasOwn(value, opts.property) && looksLikeSignature(value[opts.property])
  if (signed) {
    out.push(...verifyProperty(value, pointer, opts))
  }
  for (const [name, child] of Object.entries(value)) {
    if (!(signed && name === opts.property)) {
      walk(child, `${pointer}/${pointerToken(name)}`, opts, out)
    }
  }
}

// verifyProperty checks every signer of the signature held by obj.
function verifyProperty (obj, pointer, opts) {
  const wrapper = obj[opts.property]
  const arrayName = 'signers' in wrapper ? 'signers' : 'chain' in wrapper ? 'chain' : null
  const form = arrayName === null ? 'single' : arrayName === 'signers' ? 'multiple' : 'chain'
  const base = { pointer, property: opts.property, form }
  if (arrayName === null) {
    const place = ({ excludes, ...unsigned }) => unsigned
    return [verifySigner(obj, opts, { ...base, index: null }, wrapper, wrapper, place)]
  }
  const signers = wrapper[arrayName]
  if (!Array.isArray(signers) || signers.length === 0 || ('signers' in wrapper && 'chain' in wrapper)) {
    return [{ ...base, index: null, algorithm: null, valid: false, reason: `"${arrayName}" must be a non-empty array` }]
  }
  return signers.map((signer, i) => {
    const place = (unsigned) => {
      const { excludes, ...global } = wrapper
      return { ...global, [arrayName]: arrayName === 'chain' ? [...signers.slice(0, i), unsigned] : [unsigned] }
    }
    return verifySigner(obj, opts, { ...base, index: i }, wrapper, signer, place)
  })
}

// verifySigner checks one signer: place puts the signer without its value where the
// signature property's value goes; excludes and the key come from the wrapper (JSF's
// global options of "signers" and "chain") or the signer itself (a single signature).
function verifySigner (obj, opts, result, wrapper, signer, place) {
  const r = { ...result, algorithm: null, valid: false }
  try {
    if (!isObject(signer)) {
      throw new Error('the signer is not an object')
    }
    r.algorithm = signer.algorithm ?? null
    if (typeof signer.keyId === 'string') {
      r.keyId = signer.keyId
    }
    const alg = ALGORITHMS[signer.algorithm]
    if (alg === undefined) {
      throw new Error(`unsupported algorithm ${JSON.stringify(signer.algorithm)}`)
    }
    if (typeof signer.value !== 'string' || !/^[A-Za-z0-9_-]+$/.test(signer.value)) {
      throw new Error('"value" is missing or not base64url')
    }
    const sig = Buffer.from(signer.value, 'base64url')
    if (sig.toString('base64url') !== signer.value) {
      throw new Error('"value" is not canonical base64url without padding')
    }
    const key = resolveKey(signer, opts)
    checkKey(alg, signer.algorithm, key)
    r.thumbprint = thumbprint(key)
    const { value, ...unsigned } = signer
    const signedObject = { ...obj, [opts.property]: place(unsigned) }
    const excludes = wrapper.excludes ?? []
    if (!Array.isArray(excludes)) {
      throw new Error('"excludes" is not an array')
    }
    for (const name of excludes) {
      delete signedObject[name]
    }
    const data = Buffer.from(canonicalize(signedObject), 'utf8')
    r.valid = checkValue(alg, key, data, sig)
    if (!r.valid) {
      r.reason = 'the signature does not verify'
    }
  } catch (err) {
    r.reason = err.message
  }
  return r
}

function resolveKey (signer, opts) {
  if (isObject(signer.publicKey)) {
    for (const m of PRIVATE_JWK_MEMBERS) {
      if (m in signer.publicKey) {
        throw new Error(`publicKey carries the private member ${m}`)
      }
    }
    return crypto.createPublicKey({ key: signer.publicKey, format: 'jwk' })
  }
  if (typeof signer.keyId === 'string' && opts.keys.has(signer.keyId)) {
    return opts.keys.get(signer.keyId)
  }
  throw new Error('no key: neither an embedded publicKey nor a keyId given with --keys')
}

function checkKey (alg, name, key) {
  const type = key.asymmetricKeyType
  const ok = {
    ec: type === 'ec' && key.asymmetricKeyDetails.namedCurve === alg.curve,
    rsa: type === 'rsa',
    pss: type === 'rsa' || type === 'rsa-pss',
    ed25519: type === 'ed25519'
  }[alg.family]
  if (!ok) {
    throw new Error(`${name} cannot be checked with a ${type} key`)
  }
}

function checkValue (alg, key, data, sig) {
  switch (alg.family) {
    case 'ec':
      return crypto.verify(alg.hash, data, { key, dsaEncoding: 'ieee-p1363' }, sig)
    case 'rsa':
      return crypto.verify(alg.hash, data, { key, padding: crypto.constants.RSA_PKCS1_PADDING }, sig)
    case 'pss':
      return crypto.verify(alg.hash, data, { key, padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: alg.saltLength }, sig)
    case 'ed25519':
      return crypto.verify(null, data, key, sig)
  }
  return false
}

// thumbprint is the RFC 7638 SHA-256 thumbprint of a public key.
function thumbprint (key) {
  const jwk = key.export({ format: 'jwk' })
  const required = { EC: ['crv', 'kty', 'x', 'y'], RSA: ['e', 'kty', 'n'], OKP: ['crv', 'kty', 'x'] }[jwk.kty]
  const members = Object.fromEntries(required.map((m) => [m, jwk[m]]))
  return crypto.createHash('sha256').update(canonicalize(members), 'utf8').digest('base64url')
}

const opts = parseArgs(process.argv.slice(2))
opts.keys = readKeys(opts.keyFiles)
const doc = readJSON(opts.file)
const results = []
try {
  walk(doc, '', opts, results)
} catch (err) {
  fail(`${opts.file}: ${err.message}`)
}
process.stdout.write(JSON.stringify(results, null, 2) + '\n')
process.exit(results.length > 0 && results.every((r) => r.valid) ? 0 : 1)
