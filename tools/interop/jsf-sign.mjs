#!/usr/bin/env node
// jsf-sign.mjs makes what a signatory's browser makes: the JSF signer object
// {algorithm, publicKey, value} that signs "declarations" of a frozen attestation statement
// as its only signer (JSF "signers"), with Node's crypto and the npm package canonicalize.
// The service adds it to declarations.signature (the API body field digital.signer).
//
//   node jsf-sign.mjs FROZEN.json KEY.pem [OUT.json]
//
// KEY.pem is a PKCS#8 private key: P-256 signs ES256, P-384 ES384, P-521 ES512, Ed25519
// Ed25519, RSA PS256. The signer is written to OUT.json, or to standard output.
import crypto from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import canonicalize from 'canonicalize'

function fail (message) {
  process.stderr.write(`jsf-sign: ${message}\n`)
  process.exit(2)
}

// algorithmOf chooses the JSF algorithm for a private key and says how to sign with it.
function algorithmOf (key) {
  switch (key.asymmetricKeyType) {
    case 'ec': {
      const byCurve = { prime256v1: ['ES256', 'sha256'], secp384r1: ['ES384', 'sha384'], secp521r1: ['ES512', 'sha512'] }
      const found = byCurve[key.asymmetricKeyDetails.namedCurve]
      if (found === undefined) {
        fail(`unsupported EC curve ${key.asymmetricKeyDetails.namedCurve}`)
      }
      return { name: found[0], hash: found[1], options: { key, dsaEncoding: 'ieee-p1363' } }
    }
    case 'ed25519':
      return { name: 'Ed25519', hash: null, options: key }
    case 'rsa':
      return { name: 'PS256', hash: 'sha256', options: { key, padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 } }
    default:
      return fail(`unsupported key type ${key.asymmetricKeyType}`)
  }
}

const [frozenPath, keyPath, outPath, ...rest] = process.argv.slice(2)
if (frozenPath === undefined || keyPath === undefined || rest.length > 0) {
  fail('usage: node jsf-sign.mjs FROZEN.json KEY.pem [OUT.json]')
}
let doc, key
try {
  doc = JSON.parse(readFileSync(frozenPath, 'utf8'))
  key = crypto.createPrivateKey(readFileSync(keyPath, 'utf8'))
} catch (err) {
  fail(err.message)
}
const declarations = doc?.declarations
if (declarations === null || typeof declarations !== 'object' || Array.isArray(declarations)) {
  fail(`${frozenPath} has no declarations object`)
}
const alg = algorithmOf(key)
const publicKey = crypto.createPublicKey(key).export({ format: 'jwk' })
const signer = { algorithm: alg.name, publicKey }
// Signed as if it were the only signer: any signer already there is left out.
const unsigned = { ...declarations }
delete unsigned.signature
const data = Buffer.from(canonicalize({ ...unsigned, signature: { signers: [signer] } }), 'utf8')
signer.value = crypto.sign(alg.hash, data, alg.options).toString('base64url')
const out = JSON.stringify(signer, null, 2) + '\n'
if (outPath === undefined) {
  process.stdout.write(out)
} else {
  writeFileSync(outPath, out)
}
