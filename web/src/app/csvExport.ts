/**
 * csvExportHref is the link of a list's CSV export (GET <path> with the list's query): the
 * filters and sort as the list sends them, without its paging (the export writes every row).
 */
export function csvExportHref(path: string, query: unknown): string {
  const params = new URLSearchParams()
  if (query && typeof query === 'object') {
    for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
      if (key === 'cursor' || key === 'limit' || value === undefined || value === null || value === '') continue
      for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item))
    }
  }
  const text = params.toString()
  return text ? `${path}?${text}` : path
}
