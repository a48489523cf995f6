#!/usr/bin/env node
// cdx-validate.mjs checks a CycloneDX 1.6 or 1.7 JSON document against the official schema
// with the JSON validator of @cyclonedx/cyclonedx-library (the strict one, with its formats;
// it needs the optional peer dependencies ajv, ajv-formats and ajv-formats-draft2019).
//
//   node cdx-validate.mjs FILE
//
// Exit status: 0 valid, 1 invalid (the errors are printed as JSON), 2 unreadable or not a
// CycloneDX 1.6/1.7 document.
import { readFileSync } from 'node:fs'
import CDX from '@cyclonedx/cyclonedx-library'

function fail (message) {
  process.stderr.write(`cdx-validate: ${message}\n`)
  process.exit(2)
}

const versions = { 1.6: CDX.Spec.Version.v1dot6, 1.7: CDX.Spec.Version.v1dot7 }
const [path, ...rest] = process.argv.slice(2)
if (path === undefined || rest.length > 0) {
  fail('usage: node cdx-validate.mjs FILE')
}
let text, doc
try {
  text = readFileSync(path, 'utf8')
  doc = JSON.parse(text)
} catch (err) {
  fail(`${path}: ${err.message}`)
}
const version = versions[doc?.specVersion]
if (doc?.bomFormat !== 'CycloneDX' || version === undefined) {
  fail(`${path} is not a CycloneDX 1.6 or 1.7 document (bomFormat ${JSON.stringify(doc?.bomFormat)}, specVersion ${JSON.stringify(doc?.specVersion)})`)
}
const errors = await new CDX.Validation.JsonStrictValidator(version).validate(text)
if (errors !== null) {
  process.stdout.write(JSON.stringify(errors, null, 2) + '\n')
  process.stderr.write(`cdx-validate: ${path} breaks the CycloneDX ${doc.specVersion} schema\n`)
  process.exit(1)
}
process.stdout.write(`${path}: valid CycloneDX ${doc.specVersion}\n`)
