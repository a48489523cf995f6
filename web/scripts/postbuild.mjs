// Runs after `vite build`:
//  1. copies the Swagger UI assets and our API documentation page into
//     dist/apidocs/, which the Go server serves at /api/v1/docs;
//  2. re-creates dist/.gitkeep (vite empties dist/), which keeps
//     `//go:embed all:dist` compiling on a fresh clone;
//  3. refuses a build whose HTML carries inline scripts, which the server's
//     Content-Security-Policy (script-src 'self') would block;
//  4. writes a gzip twin (name.gz) of every text file over 1 KiB, which the server
//     sends to browsers that accept gzip: compressed once here, never per request.
import { copyFile, mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { constants, gzipSync } from 'node:zlib'

const webDir = fileURLToPath(new URL('..', import.meta.url))
const distDir = join(webDir, 'dist')
const apidocsOut = join(distDir, 'apidocs')
const require = createRequire(import.meta.url)
const swaggerDir = require('swagger-ui-dist').getAbsoluteFSPath()

const copies = [
  [join(swaggerDir, 'swagger-ui-bundle.js'), 'swagger-ui-bundle.js'],
  [join(swaggerDir, 'swagger-ui.css'), 'swagger-ui.css'],
  // Swagger UI is Apache-2.0: its licence and notices travel with it.
  [join(swaggerDir, 'LICENSE'), 'swagger-ui.LICENSE.txt'],
  [join(swaggerDir, 'NOTICE'), 'swagger-ui.NOTICE.txt'],
  [join(swaggerDir, 'swagger-ui-bundle.js.LICENSE.txt'), 'swagger-ui-bundle.js.LICENSE.txt'],
  [join(webDir, 'apidocs', 'index.html'), 'index.html'],
  [join(webDir, 'apidocs', 'init.js'), 'init.js'],
  [join(webDir, 'apidocs', 'theme.js'), 'theme.js'],
  [join(webDir, 'apidocs', 'docs.css'), 'docs.css'],
]

// A <script> element with a body (no src) is inline code.
const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc=)[^>]*>\s*\S/i

async function findInlineScripts(dir) {
  const offenders = []
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue
    const path = join(entry.parentPath ?? entry.path, entry.name)
    if (INLINE_SCRIPT.test(await readFile(path, 'utf8'))) offenders.push(path)
  }
  return offenders
}

await mkdir(apidocsOut, { recursive: true })
await Promise.all(copies.map(([from, to]) => copyFile(from, join(apidocsOut, to))))
await writeFile(join(distDir, '.gitkeep'), '')

const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.svg', '.json', '.txt', '.map'])

async function precompress(dir) {
  let count = 0
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.has(extname(entry.name))) continue
    const path = join(entry.parentPath ?? entry.path, entry.name)
    const data = await readFile(path)
    if (data.length < 1024) continue
    await writeFile(`${path}.gz`, gzipSync(data, { level: constants.Z_BEST_COMPRESSION }))
    count++
  }
  return count
}

const offenders = await findInlineScripts(distDir)
if (offenders.length > 0) {
  console.error(`postbuild: inline <script> found (blocked by the CSP):\n  ${offenders.join('\n  ')}`)
  process.exit(1)
}
const compressed = await precompress(distDir)
console.log(`postbuild: API docs assets in ${apidocsOut}; ${compressed} files precompressed; dist/.gitkeep restored`)
