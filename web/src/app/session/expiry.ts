import type { Router } from 'vue-router'
import { onUnauthorized } from '../../api/client'
import { loginLocation } from './redirect'
import { useSessionStore } from './store'

/**
 * installSessionExpiry handles a session that ends while the user works (it
 * expired, an administrator revoked it, the password was changed elsewhere): the
 * first API call answering 401 forgets the user and opens the sign-in page, which
 * explains why and returns to the current page afterwards. A 401 while nobody was
 * signed in changes nothing. Returns a function that uninstalls the handler.
 */
export function installSessionExpiry(router: Router): () => void {
  return onUnauthorized(() => {
    const session = useSessionStore()
    if (!session.expire()) return
    const current = router.currentRoute.value
    if (current.meta.requiresAuth === false) return
    void router.replace(loginLocation(current.fullPath))
  })
}
