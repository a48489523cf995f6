import { useI18n } from 'vue-i18n'
import { formatDate } from '../../app/format'
import { usePreferencesStore } from '../../app/preferences'
import { formatScore } from '../assessments/format'
import type { HeatDatum } from './shape'

/**
 * useCellText says a portfolio cell in words: the entity, the latest assessment, its score,
 * when, and how many finished assessments there are (the heat map's tooltip).
 */
export function useCellText(): (d: Pick<HeatDatum, 'cell' | 'row'>) => string {
  const { t } = useI18n()
  const preferences = usePreferencesStore()
  return (d) =>
    t(
      'insight.portfolio.cell',
      {
        entity: d.row.entityName,
        title: d.cell.assessmentTitle,
        score: formatScore(d.cell.score, preferences.locale),
        date: formatDate(d.cell.completedAt, preferences.locale) ?? '',
        count: d.cell.completed,
      },
      d.cell.completed,
    )
}
