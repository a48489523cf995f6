import { onMounted, ref, type Ref } from 'vue'
import { fetchChannelStatus, fetchEventTypes, type ChannelStatus, type EventType } from './api'

/** EventCatalogue is what a page that picks events for a destination or rule reads once. */
export interface EventCatalogue {
  /** catalogue is the event catalogue (empty until read, or when it cannot be). */
  catalogue: Ref<EventType[]>
  /** channels tells which channels deliver (null until read, or when it cannot be). */
  channels: Ref<ChannelStatus | null>
}

/**
 * useEventCatalogue reads the event catalogue and the channels' status when the
 * component mounts. A failure leaves the defaults: the page still works, only
 * without event names and switched-off warnings.
 */
export function useEventCatalogue(): EventCatalogue {
  const catalogue = ref<EventType[]>([])
  const channels = ref<ChannelStatus | null>(null)
  onMounted(() => {
    fetchEventTypes()
      .then((types) => (catalogue.value = types))
      .catch(() => {})
    fetchChannelStatus()
      .then((status) => (channels.value = status))
      .catch(() => {})
  })
  return { catalogue, channels }
}
