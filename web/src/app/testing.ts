import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import type { Component } from 'vue'
import { createAppI18n } from './i18n'
import { usePreferencesStore } from './preferences'

// Helpers of component tests (only tests import this module).

/** settle lets pending promises, 0 ms timers and the renders they cause run, `rounds` times over. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
}

/**
 * mountInApp mounts `component` into the document as the application would show it:
 * with a fresh Pinia whose preferences are in English, and the English messages.
 */
export function mountInApp(component: Component, props: Record<string, unknown> = {}): VueWrapper {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale('en')
  return mount(component, { props, attachTo: document.body, global: { plugins: [pinia, createAppI18n('en')] } }) as VueWrapper
}
