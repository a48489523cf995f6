import vue from '@vitejs/plugin-vue'
import Components from 'unplugin-vue-components/vite'
import { ElementPlusResolver } from 'unplugin-vue-components/resolvers'
import { defineConfig } from 'vitest/config'

// The Go server (cmd/server) listens here during development; `npm run dev`
// forwards API and metrics calls to it so the SPA stays same-origin.
const apiServer = 'http://localhost:3001'

export default defineConfig({
  plugins: [
    vue(),
    // Imports each Element Plus component (and only its CSS) where a template
    // uses it, instead of shipping the whole library. Our own components are
    // imported explicitly, hence `dirs: []`.
    Components({
      dirs: [],
      dts: 'src/components.d.ts',
      resolvers: [ElementPlusResolver({ importStyle: 'css' })],
    }),
  ],
  define: {
    __VUE_I18N_FULL_INSTALL__: true,
    __VUE_I18N_LEGACY_API__: false,
    __INTLIFY_PROD_DEVTOOLS__: false,
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target: apiServer, changeOrigin: false },
      '/metrics': { target: apiServer, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    // Keep every script an external, hashed file: the server's CSP allows no inline code.
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The framework every page needs, cached across releases of our own code.
            {
              name: 'vue',
              test: /[\\/]node_modules[\\/](@vue|vue|vue-router|pinia|vue-i18n|@intlify)[\\/]/,
            },
            // ECharts and its renderer, loaded only by pages that draw a chart (they import
            // the chart component lazily), cached across releases of our own code.
            {
              name: 'echarts',
              test: /[\\/]node_modules[\\/](echarts|zrender|vue-echarts)[\\/]/,
            },
            // Element Plus code shared by several pages; page-specific parts stay with their page.
            {
              name: 'element-plus',
              test: /[\\/]node_modules[\\/](element-plus|@element-plus|@floating-ui|@vueuse|lodash-unified|lodash-es|@ctrl|async-validator|dayjs|memoize-one|normalize-wheel-es)[\\/]/,
              minShareCount: 2,
            },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.ts'],
    restoreMocks: true,
    // The first test that loads a page transforms Element Plus, which takes seconds.
    testTimeout: 20_000,
    unstubGlobals: true,
    // Element Plus' per-component style modules import .css files, which only
    // Vite (not Node) can load, so let Vite transform the library.
    server: { deps: { inline: ['element-plus'] } },
  },
})
