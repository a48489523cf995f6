import 'element-plus/theme-chalk/dark/css-vars.css'
import 'element-plus/es/components/message/style/css'
import 'element-plus/es/components/message-box/style/css'
import './app/styles.css'
import { createPinia } from 'pinia'
import { createApp } from 'vue'
import App from './app/App.vue'
import { createAppI18n } from './app/i18n'
import { usePreferencesStore } from './app/preferences'
import { createAppRouter } from './app/router'

const pinia = createPinia()
const preferences = usePreferencesStore(pinia)

createApp(App)
  .use(pinia)
  .use(createAppI18n(preferences.locale))
  .use(createAppRouter())
  .mount('#app')
