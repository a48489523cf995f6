import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'

/** EventType is one entry of the event catalogue. */
export type EventType = components['schemas']['EventType']

/** ChannelStatus tells which notification channels deliver on this installation. */
export type ChannelStatus = components['schemas']['ChannelStatus']

/** Notification is one in-app notification of the signed-in user: an event as its recipient reads it. */
export type Notification = components['schemas']['Notification']

/** fetchEventTypes reads the event catalogue (GET /api/v1/events/types). */
export async function fetchEventTypes(): Promise<EventType[]> {
  return (await unwrap(api.GET('/api/v1/events/types'))).items ?? []
}

/** fetchChannelStatus tells which channels deliver (GET /api/v1/notification-channels). */
export function fetchChannelStatus(): Promise<ChannelStatus> {
  return unwrap(api.GET('/api/v1/notification-channels'))
}
