import type { LocationQueryRaw } from 'vue-router'

/**
 * stringifyQuery writes a route's query the strict way, every key and value through
 * encodeURIComponent, so a return path reads as one opaque value:
 * "/login?redirect=%2Fprofile%3Ftab%3Dpassword". (vue-router's default leaves "/" and
 * "?" as they are, which is valid but harder to read.) A null value writes the key
 * alone and an undefined one is left out, as vue-router does; its default
 * parseQuery reads both forms.
 */
export function stringifyQuery(query: LocationQueryRaw | undefined): string {
  const parts: string[] = []
  for (const [key, raw] of Object.entries(query ?? {})) {
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      if (value === undefined) continue
      const name = encodeURIComponent(key)
      parts.push(value === null ? name : `${name}=${encodeURIComponent(String(value))}`)
    }
  }
  return parts.join('&')
}
