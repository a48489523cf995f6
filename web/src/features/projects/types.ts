import type { components } from '../../api/schema'
import type { AssertSame } from '../../resources/catalogue/api'

// The project types come from the generated schema (src/api/schema.d.ts); the list of
// states gives their usual order and is checked against the generated enum.

type Schemas = components['schemas']

/** Project is a project as GET /api/v1/projects/{id} answers it. */
export type Project = Schemas['Project']

/** PROJECT_STATES lists a project's lifecycle states, in their usual order. */
export const PROJECT_STATES = ['new', 'in_progress', 'on_hold', 'complete', 'operational', 'retired'] as const

/** ProjectState is a project's lifecycle state. */
export type ProjectState = Project['state']

/** PROJECT_STATES_COMPLETE proves that PROJECT_STATES lists exactly the generated enum. */
export const PROJECT_STATES_COMPLETE: AssertSame<ProjectState, (typeof PROJECT_STATES)[number]> = true

/** WarningSeverity ranks a figures warning; critical ones come first. */
export type WarningSeverity = 'critical' | 'warning' | 'info'

/**
 * ProjectWarning is something in a project that needs attention (no standard, an
 * overdue due date, …). The server sends `code` and `message`; `severity` is optional
 * (a warning when absent) for when assessments bring graver ones.
 */
export type ProjectWarning = Omit<Schemas['ProjectWarning'], 'severity'> & { severity?: WarningSeverity }

/** ProjectFigures is the answer of GET /projects/{id}/figures (ratios are null while there is nothing to measure). */
export type ProjectFigures = Omit<Schemas['ProjectFigures'], 'warnings'> & { warnings: ProjectWarning[] | null }

const SEVERITY_ORDER: Record<WarningSeverity, number> = { critical: 0, warning: 1, info: 2 }

/** severityOf is a warning's severity; one without is a warning. */
export function severityOf(warning: ProjectWarning): WarningSeverity {
  return warning.severity && warning.severity in SEVERITY_ORDER ? warning.severity : 'warning'
}

/** sortWarnings orders warnings by severity (critical first), keeping the server's order within one severity. */
export function sortWarnings(warnings: readonly ProjectWarning[] | null): ProjectWarning[] {
  return [...(warnings ?? [])].sort((a, b) => SEVERITY_ORDER[severityOf(a)] - SEVERITY_ORDER[severityOf(b)])
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
