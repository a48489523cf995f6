import type { EmailSettings, EmailSettingsUpdate } from './api'

/** SMTP_FIELDS are the settings in display order, named as the API names them. */
export const SMTP_FIELDS = ['enabled', 'host', 'port', 'secure', 'username', 'password', 'from', 'tlsRejectUnauthorized'] as const

/** SmtpField is one of SMTP_FIELDS. */
export type SmtpField = (typeof SMTP_FIELDS)[number]

/** SMTP_VARIABLES names the environment variable behind each field. */
export const SMTP_VARIABLES: Record<SmtpField, string> = {
  enabled: 'SMTP_ENABLED',
  host: 'SMTP_HOST',
  port: 'SMTP_PORT',
  secure: 'SMTP_SECURE',
  username: 'SMTP_USER',
  password: 'SMTP_PASS',
  from: 'SMTP_FROM',
  tlsRejectUnauthorized: 'SMTP_TLS_REJECT_UNAUTHORIZED',
}

/** SettingSource is where a field's value comes from; the environment wins. */
export type SettingSource = 'environment' | 'stored' | 'default'

/** sourceOf returns the source of a field's value, 'default' when the server names none. */
export function sourceOf(settings: Pick<EmailSettings, 'sources'>, field: SmtpField): SettingSource {
  const source = settings.sources?.[field]
  return source === 'environment' || source === 'stored' ? source : 'default'
}

/** fromEnvironment reports whether the environment sets a field, so it cannot be stored. */
export function fromEnvironment(settings: Pick<EmailSettings, 'sources'>, field: SmtpField): boolean {
  return sourceOf(settings, field) === 'environment'
}

/** EmailForm holds the stored-settings form; the password is write-only (blank keeps it). */
export interface EmailForm {
  enabled: boolean
  host: string
  port: number
  secure: boolean
  username: string
  password: string
  clearPassword: boolean
  from: string
  tlsRejectUnauthorized: boolean
}

/** formOf fills the form from the effective settings. */
export function formOf(settings: EmailSettings): EmailForm {
  return {
    enabled: settings.enabled,
    host: settings.host ?? '',
    port: settings.port || 587,
    secure: settings.secure,
    username: settings.username ?? '',
    password: '',
    clearPassword: false,
    from: settings.from ?? '',
    tlsRejectUnauthorized: settings.tlsRejectUnauthorized,
  }
}

/**
 * emailSettingsUpdate builds the PATCH body: the version read and only the fields
 * that changed and that the environment does not set. A typed password replaces the
 * stored one; "clear" sends an empty one, which removes it. Returns null when
 * nothing would change.
 */
export function emailSettingsUpdate(settings: EmailSettings, form: EmailForm): EmailSettingsUpdate | null {
  const update: EmailSettingsUpdate = { version: settings.version }
  const storable = (field: SmtpField): boolean => !fromEnvironment(settings, field)
  const host = form.host.trim()
  const username = form.username.trim()
  const from = form.from.trim()
  if (storable('enabled') && form.enabled !== settings.enabled) update.enabled = form.enabled
  if (storable('host') && host !== (settings.host ?? '')) update.host = host
  if (storable('port') && form.port !== settings.port) update.port = form.port
  if (storable('secure') && form.secure !== settings.secure) update.secure = form.secure
  if (storable('username') && username !== (settings.username ?? '')) update.username = username
  if (storable('password')) {
    if (form.password !== '') update.password = form.password
    else if (form.clearPassword && settings.passwordSet) update.password = ''
  }
  if (storable('from') && from !== (settings.from ?? '')) update.from = from
  if (storable('tlsRejectUnauthorized') && form.tlsRejectUnauthorized !== settings.tlsRejectUnauthorized) {
    update.tlsRejectUnauthorized = form.tlsRejectUnauthorized
  }
  return Object.keys(update).length === 1 ? null : update
}
