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

/**
 * words splits text into lower-case words as axe-core 4.14 does to compare a visible label with an
 * accessible name: what is in parentheses is dropped, and anything but letters and digits parts
 * words ("Search (Ctrl K)" is the one word "search"; "Ada Admin – account menu" is four).
 */
function words(text: string): string[] {
  let rest = text.normalize('NFKD')
  for (let previous = ''; previous !== rest; ) {
    previous = rest
    rest = rest.replace(/\([^()]*\)/g, '')
  }
  return rest.toLocaleLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)
}

/**
 * labelInName says whether an accessible name contains a control's visible text as axe-core's
 * label-content-name-mismatch asks (WCAG 2.5.3, Label in Name): the label's words a run of the
 * name's words.
 */
export function labelInName(visible: string, name: string | null | undefined): boolean {
  const label = words(visible)
  const named = words(name ?? '')
  return named.some((_, start) => label.length > 0 && label.every((word, i) => named[start + i] === word))
}

/**
 * nameStartsWithLabel says whether an accessible name begins with a control's visible text, word
 * for word: labelInName, and the run first, as WCAG's advice on 2.5.3 has it. Pass the control's
 * textContent as `visible`: axe-core reads the text one sees, aria-hidden parts included, joined
 * without spaces where the markup has none.
 */
export function nameStartsWithLabel(visible: string, name: string | null | undefined): boolean {
  const label = words(visible)
  const named = words(name ?? '')
  return label.length > 0 && label.every((word, i) => named[i] === word)
}
