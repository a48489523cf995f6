import { mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { defineComponent, h, type Component } from 'vue'
import { createMemoryHistory, createRouter, type Router } from 'vue-router'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'

// Helpers of the insight component tests (only tests import this module).

/** ChartStub stands in for vue-echarts' chart (jsdom has no canvas): it shows the option's JSON and re-emits clicks. */
export const ChartStub = defineComponent({
  name: 'ChartStub',
  props: { option: { type: Object, required: true } },
  emits: ['click'],
  setup: (props) => () => h('div', { 'data-test': 'chart-stub', 'data-series': String((props.option.series as unknown[]).length) }),
})

/** mountWithRouter mounts component in English with a router that knows the pages insight links to. */
export async function mountWithRouter(component: Component, props: Record<string, unknown>, locale: 'en' | 'de' = 'en'): Promise<{ wrapper: VueWrapper; router: Router }> {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale(locale)
  const stub = { template: '<div />' }
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', name: 'home', component: stub },
      { path: '/assessments/:id', name: 'assessment', component: stub },
      { path: '/entities/:id', name: 'entity', component: stub },
    ],
  })
  await router.push('/')
  const wrapper = mount(component, { props, attachTo: document.body, global: { plugins: [pinia, router, createAppI18n(locale)] } }) as VueWrapper
  return { wrapper, router }
}
