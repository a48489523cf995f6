#!/usr/bin/env node
// jcs.mjs writes the RFC 8785 (JCS) canonical form of a JSON file, as the npm package
// canonicalize computes it, to standard output: the bytes a JSF signature covers.
//
//   node jcs.mjs FILE
import { readFileSync } from 'node:fs'
import canonicalize from 'canonicalize'

const [path, ...rest] = process.argv.slice(2)
if (path === undefined || rest.length > 0) {
  process.stderr.write('usage: node jcs.mjs FILE\n')
  process.exit(2)
}
try {
  process.stdout.write(canonicalize(JSON.parse(readFileSync(path, 'utf8'))))
} catch (err) {
  process.stderr.write(`jcs: ${path}: ${err.message}\n`)
  process.exit(2)
}
