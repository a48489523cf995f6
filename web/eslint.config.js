// ESLint for the web app: JavaScript, TypeScript and Vue 3 recommended rules, and
// the folder rules of docs/architecture.md ("Web app layout and import rules"):
//
//   src/api/              the typed client; imports nothing of ours
//   src/app/              the shell and the generic helpers every page may use;
//                         imports src/api/ and src/locales/, never a resource or a
//                         feature, except router.ts (each feature's routes.ts),
//                         AppLayout.vue (a feature's top-level components, e.g. the
//                         bell) and App.test.ts (api.ts modules, to mock them)
//   src/resources/<name>/ one shared resource (API calls, types, rules, components);
//                         imports src/app/, src/api/, src/locales/, its own folder and
//                         other resources (never in a cycle), never a feature
//   src/features/<name>/  one feature; imports src/resources/, src/app/, src/api/,
//                         src/locales/ and its own folder, never another feature
//
// The boundaries are import-x/no-restricted-paths zones on resolved file paths, so
// they hold for relative paths of any depth. import-x/no-unresolved makes sure every
// import does resolve: an import the resolver cannot follow would escape the zones.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import js from '@eslint/js'
import importX, { createNodeResolver } from 'eslint-plugin-import-x'
import pluginVue from 'eslint-plugin-vue'
import globals from 'globals'
import vueParser from 'vue-eslint-parser'
import tseslint from 'typescript-eslint'
import { defineConfig } from 'eslint/config'

const webDir = import.meta.dirname

// Every feature folder, so each gets a zone that lets it import only itself.
const features = readdirSync(join(webDir, 'src/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

const FEATURE_RULE =
  'A feature imports only src/resources/, src/app/, src/api/, src/locales/ and its own folder. Move what two features share into src/resources/<name>/ (or, if it is generic, src/app/).'
const RESOURCE_RULE = 'A resource never imports a feature: move what it needs into the resource.'
const APP_RULE =
  'src/app/ never imports a feature or a resource: only router.ts (routes.ts modules), AppLayout.vue (top-level components) and App.test.ts (api.ts, to mock it) may.'
// The modules that compose the application: only the entry and the shell import them.
const COMPOSITION = ['src/main.ts', 'src/app/router.ts', 'src/app/App.vue', 'src/app/AppLayout.vue']

// The app files allowed to reach into features, each with what it may import.
const ROUTER = 'src/app/router.ts'
const SHELL = 'src/app/AppLayout.vue'
// App.test.ts boots the whole app (router and every page) and mocks api.ts modules.
const APP_TEST = 'src/app/App.test.ts'

/** restrictedPaths is the import-x/no-restricted-paths rule with the given zones. */
function restrictedPaths(zones) {
  return ['error', { basePath: webDir, zones }]
}

/**
 * onlyFiles lets `target` import from src/features/ and src/resources/ only files
 * matching `allowed` (globs below src/), and nothing else from either.
 */
function onlyFiles(target, allowed, what) {
  return restrictedPaths(
    ['features', 'resources'].map((layer) => ({
      target,
      from: `src/${layer}/**`,
      except: allowed.filter((glob) => glob.startsWith(`${layer}/`)).map((glob) => `**/src/${glob}`),
      message: `${target} may import from features and resources only ${what}.`,
    })),
  )
}

export default defineConfig(
  {
    ignores: ['dist/**', 'node_modules/**', 'e2e/artifacts/**', 'src/api/schema.d.ts', 'src/components.d.ts'],
  },

  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...pluginVue.configs['flat/recommended'],

  // One parser for .vue and .ts: vue-eslint-parser hands scripts to the TypeScript
  // parser. import-x parses imported files with the importing file's parser, so a
  // .ts file that imports a component must use it too.
  {
    files: ['**/*.{ts,vue}'],
    languageOptions: {
      parser: vueParser,
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'], sourceType: 'module' },
    },
  },

  {
    files: ['src/**/*.{ts,vue}'],
    languageOptions: { globals: globals.browser },
  },

  // Node scripts, browser journeys, build and lint configuration.
  {
    files: ['e2e/**/*.mjs', 'scripts/**/*.mjs', '*.config.{js,ts}'],
    languageOptions: { globals: globals.node },
  },
  // The API documentation page's start-up script runs in the browser next to Swagger UI.
  {
    files: ['apidocs/**/*.js'],
    languageOptions: { sourceType: 'script', globals: globals.browser },
  },

  {
    rules: {
      // Templates keep short elements and their attributes on one line and break
      // long ones by hand; these two layout rules would force a line per attribute
      // and per text content. Every other rule of the Vue preset stays on.
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      // Unused arguments and caught errors are fine when their name says so.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },

  // Imports: every one resolves, no cycles, and the folder boundaries.
  {
    files: ['src/**/*.{ts,vue}'],
    plugins: { 'import-x': importX },
    settings: {
      // Files import-x reads to follow imports (cycles); JSON is only resolved.
      'import-x/extensions': ['.ts', '.d.ts', '.vue', '.js', '.mjs'],
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.d.ts', '.vue', '.js', '.mjs', '.json'] }),
      ],
    },
    rules: {
      'import-x/no-unresolved': 'error',
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-duplicates': 'error',
      'import-x/no-restricted-paths': restrictedPaths([
        {
          target: 'src/api',
          from: ['src/app', 'src/resources', 'src/features'],
          message: 'The API client is the lowest layer: it imports nothing of ours.',
        },
        ...features.map((feature) => ({
          target: `src/features/${feature}`,
          from: 'src/features',
          except: [`./${feature}`],
          message: FEATURE_RULE,
        })),
        {
          target: ['src/features', 'src/resources'],
          from: COMPOSITION,
          message: 'The entry, the router and the shell compose the application; features and resources never import them.',
        },
      ]),
    },
  },
  // src/resources/ never imports a feature (resources may import each other; no-cycle
  // keeps that a tree).
  {
    files: ['src/resources/**/*.{ts,vue}'],
    rules: {
      'import-x/no-restricted-paths': restrictedPaths([
        { target: 'src/resources', from: 'src/features', message: RESOURCE_RULE },
        {
          target: 'src/resources',
          from: COMPOSITION,
          message: 'The entry, the router and the shell compose the application; resources never import them.',
        },
      ]),
    },
  },
  // src/app/ never imports a feature or a resource, with the three exceptions that follow.
  {
    files: ['src/app/**/*.{ts,vue}'],
    ignores: [ROUTER, SHELL, APP_TEST],
    rules: {
      'import-x/no-restricted-paths': restrictedPaths([
        { target: 'src/app', from: ['src/features', 'src/resources'], message: APP_RULE },
        { target: 'src/app', from: 'src/main.ts', message: 'src/main.ts is the entry; nothing imports it.' },
      ]),
    },
  },
  {
    files: [ROUTER],
    rules: { 'import-x/no-restricted-paths': onlyFiles(ROUTER, ['features/*/routes.ts'], "a feature's routes.ts") },
  },
  {
    files: [SHELL],
    rules: { 'import-x/no-restricted-paths': onlyFiles(SHELL, ['features/*/*.vue'], "a feature's top-level components") },
  },
  {
    // App.test.ts boots the whole application; it mocks the api.ts of features and of
    // the resources the shell's pages call (API keys, events, notification rules).
    files: [APP_TEST],
    rules: {
      'import-x/no-restricted-paths': onlyFiles(APP_TEST, ['features/*/api.ts', 'resources/*/api.ts'], 'api.ts, to mock it'),
    },
  },
)
