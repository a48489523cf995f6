import type { AssessmentProgress, AssessmentRequirement, Result } from './types'

// The progress of an assessment: how many requirements are answered and how.

/** ProgressSegment is one coloured part of the progress bar. */
export interface ProgressSegment {
  key: Result | 'unanswered'
  count: number
  /** percent of all requirements, 0–100. */
  percent: number
}

/** percentOf is `part` of `total` as a whole percentage that never overstates: 99.6 stays 99, 0.3 becomes 1. */
export function percentOf(part: number, total: number): number {
  if (total <= 0) return 0
  const value = (100 * part) / total
  if (value > 99 && value < 100) return 99
  if (value > 0 && value < 1) return 1
  return Math.round(value)
}

/** progressSegments splits the bar into yes, partial, no, not applicable and unanswered. */
export function progressSegments(progress: AssessmentProgress): ProgressSegment[] {
  const answeredResults = progress.yes + progress.partial + progress.no + progress.notApplicable
  const unanswered = Math.max(0, progress.total - answeredResults)
  const counts: [ProgressSegment['key'], number][] = [
    ['yes', progress.yes],
    ['partial', progress.partial],
    ['no', progress.no],
    ['not_applicable', progress.notApplicable],
    ['unanswered', unanswered],
  ]
  const total = Math.max(progress.total, answeredResults)
  return counts.map(([key, count]) => ({ key, count, percent: total > 0 ? (100 * count) / total : 0 }))
}

/** progressFrom counts a list of requirements the way the server's progress does. */
export function progressFrom(requirements: readonly AssessmentRequirement[]): AssessmentProgress {
  const progress: AssessmentProgress = { total: requirements.length, answered: 0, yes: 0, partial: 0, no: 0, notApplicable: 0, withEvidence: 0 }
  for (const requirement of requirements) {
    if (requirement.result !== null) {
      progress.answered++
      if (requirement.result === 'not_applicable') progress.notApplicable++
      else progress[requirement.result]++
    }
    if (requirement.evidenceCount > 0) progress.withEvidence++
  }
  return progress
}

export { formatScore } from '../../resources/assessments/format'
