import type { components } from '../../api/schema'

/** TagOption is a tag as pickers and chips need it (a TagRef; a full Tag has these fields too). */
export type TagOption = components['schemas']['TagRef']
