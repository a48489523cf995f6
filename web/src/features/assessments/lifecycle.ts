import type { ApiError } from '../../api/errors'
import type { Assessment, AssessmentState } from './types'

// The assessment lifecycle as the workspace presents it: the main path as steps, and the
// moves the server allows now (`allowedStates`) as named actions. The server decides what
// is allowed; the UI never offers a move it did not list.

/** MAIN_PATH is the usual way of an assessment, shown as the stepper's steps. */
export const MAIN_PATH: readonly AssessmentState[] = ['new', 'pending', 'in_progress', 'complete', 'archived']

/** StateAction names a move by what it does for the user. */
export type StateAction = 'plan' | 'start' | 'resume' | 'hold' | 'complete' | 'reopen' | 'archive' | 'cancel'

/** ACTION_ORDER is the order the action buttons appear in: forward moves first, cancel last. */
const ACTION_ORDER: readonly StateAction[] = ['start', 'resume', 'complete', 'plan', 'reopen', 'archive', 'hold', 'cancel']

/** actionFor names the move from `from` to `to`, or null for a move the UI has no name for. */
export function actionFor(from: AssessmentState, to: AssessmentState): StateAction | null {
  switch (to) {
    case 'pending':
      return 'plan'
    case 'in_progress':
      if (from === 'on_hold') return 'resume'
      if (from === 'complete') return 'reopen'
      return 'start'
    case 'on_hold':
      return 'hold'
    case 'complete':
      return 'complete'
    case 'archived':
      return 'archive'
    case 'cancelled':
      return 'cancel'
    default:
      return null
  }
}

/** StateMove is one action button: what it does and where it goes. */
export interface StateMove {
  action: StateAction
  to: AssessmentState
  /** danger asks for a red confirmation (the move cannot be undone). */
  danger: boolean
  /** primary is the move the stepper highlights (the next step on the main path). */
  primary: boolean
}

/** availableMoves lists the moves the server allows now, in button order. */
export function availableMoves(assessment: Pick<Assessment, 'state' | 'allowedStates'>): StateMove[] {
  const moves: StateMove[] = []
  for (const to of assessment.allowedStates ?? []) {
    const action = actionFor(assessment.state, to)
    if (action === null || moves.some((move) => move.action === action)) continue
    moves.push({ action, to, danger: action === 'cancel' || action === 'archive', primary: false })
  }
  moves.sort((a, b) => ACTION_ORDER.indexOf(a.action) - ACTION_ORDER.indexOf(b.action))
  const primary = moves.find((move) => ['start', 'resume', 'complete'].includes(move.action))
  if (primary) primary.primary = true
  return moves
}

/** StepStatus is how the stepper draws one step. */
export type StepStatus = 'done' | 'current' | 'todo' | 'skipped'

/** Step is one step of the stepper. */
export interface Step {
  state: AssessmentState
  status: StepStatus
}

/**
 * steps draws the main path for an assessment in `state`. Pending is optional (many
 * assessments start straight from new), so it is a step only while the assessment is
 * pending. On hold is drawn on the in-progress step (it pauses the work); cancelled marks
 * the steps it never reached as skipped.
 */
export function steps(state: AssessmentState, started: boolean): Step[] {
  const path = MAIN_PATH.filter((step) => step !== 'pending' || state === 'pending')
  if (state === 'cancelled') {
    return path.map((step) => ({ state: step, status: step === 'new' || (started && step === 'in_progress') ? 'done' : 'skipped' }))
  }
  const index = path.indexOf(state === 'on_hold' ? 'in_progress' : state)
  return path.map((step, i) => ({ state: step, status: i < index ? 'done' : i === index ? 'current' : 'todo' }))
}

/** Precondition is one reason the server refused a move (422 business_rule_violation). */
export interface Precondition {
  code: string
  /** count is the number the server gave (e.g. requirements unanswered), when it gave one. */
  count: number | null
  message: string
}

/**
 * preconditions reads the reasons of a refused move from the error's details: codes such
 * as unanswered, missing_rationale, no_evidence or no_requirements, their message being
 * the count where there is one. Empty for any other error.
 */
export function preconditions(error: ApiError | null): Precondition[] {
  if (error === null || error.status !== 422) return []
  return error.details
    .filter((detail) => detail.code)
    .map((detail) => {
      const message = detail.message ?? ''
      const count = /^\d+$/.test(message.trim()) ? Number(message.trim()) : null
      return { code: detail.code!, count, message }
    })
}

/** KNOWN_PRECONDITIONS are the codes with a translated explanation (assessments.preconditions.*). */
export const KNOWN_PRECONDITIONS = ['unanswered', 'missing_rationale', 'no_evidence', 'missing_evidence', 'no_requirements'] as const
