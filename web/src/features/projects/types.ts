// These types mirror the catalogue API contract for projects and assess.ProjectFigures
// as the projects slice defines it. TODO(generated-types): replace them with the schema
// types in src/api/schema.d.ts as soon as the OpenAPI document carries the project operations.

/** PROJECT_STATES lists a project's lifecycle states, in their usual order. */
export const PROJECT_STATES = ['new', 'in_progress', 'on_hold', 'complete', 'operational', 'retired'] as const

/** ProjectState is a project's lifecycle state. */
export type ProjectState = (typeof PROJECT_STATES)[number]

/** WarningSeverity ranks a figures warning; critical ones come first. */
export type WarningSeverity = 'critical' | 'warning' | 'info'

/**
 * ProjectWarning is something in a project that needs attention (no standard, an
 * overdue due date, …). The server sends `code` and `message`; `severity` is optional
 * (a warning when absent) for when assessments bring graver ones.
 */
export interface ProjectWarning {
  code: string
  message: string
  severity?: WarningSeverity
}

/** ProjectFigures is the answer of GET /projects/{id}/figures. */
export interface ProjectFigures {
  /** percentComplete is null while there are no assessments. */
  assessments: { total: number; complete: number; inProgress: number; percentComplete: number | null }
  /** project: the project is past its due date and not complete; assessments: how many of its assessments are overdue. */
  overdue: { project: boolean; assessments: number }
  /** percent is null while there is nothing to measure (no requirements in scope). */
  evidenceCoverage: { requirements: number; withEvidence: number; percent: number | null }
  /** averageScore (0–100) is null until an assessment is scored. */
  conformance: { averageScore: number | null; assessed: number }
  warnings: ProjectWarning[]
}

const SEVERITY_ORDER: Record<WarningSeverity, number> = { critical: 0, warning: 1, info: 2 }

/** severityOf is a warning's severity; one without is a warning. */
export function severityOf(warning: ProjectWarning): WarningSeverity {
  return warning.severity && warning.severity in SEVERITY_ORDER ? warning.severity : 'warning'
}

/** sortWarnings orders warnings by severity (critical first), keeping the server's order within one severity. */
export function sortWarnings(warnings: readonly ProjectWarning[]): ProjectWarning[] {
  return [...warnings].sort((a, b) => SEVERITY_ORDER[severityOf(a)] - SEVERITY_ORDER[severityOf(b)])
}

/**
 * roundPercent shows a percentage as a whole number clamped to 0–100 that never
 * overstates or hides progress: 99.6 stays 99 (not a false 100), 0.3 becomes 1 (not a false 0).
 */
export function roundPercent(value: number): number {
  const clamped = Math.min(100, Math.max(0, value))
  if (clamped > 99 && clamped < 100) return 99
  if (clamped > 0 && clamped < 1) return 1
  return Math.round(clamped)
}
