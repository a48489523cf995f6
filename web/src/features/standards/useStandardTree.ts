import { ref, shallowRef, type Ref, type ShallowRef } from 'vue'
import { ApiError } from '../../api/client'
import { networkError } from '../../api/errors'
import * as standardsApi from './api'
import type {
  Level,
  LevelFields,
  LevelMembership,
  Requirement,
  RequirementMove,
  RequirementUpdate,
  Standard,
  TreeRequirement,
} from './types'

// useStandardTree holds a standard with its requirement tree and levels, as the detail page
// shows them, and carries out the tree's and the level editor's changes. Small changes
// (an edit, a level membership) are applied to the list in place from the server's answer;
// changes that renumber siblings (create, move, delete) read the tree again, which takes
// one request (about 10 ms on the server for ASVS' 442 requirements).

/** NewPlacement is where a new requirement goes: under `parentId` (null: top level), at `position` or last. */
export interface NewPlacement {
  parentId: string | null
  position?: number
}

/** Failure names what failed (an i18n key) and why. */
export interface TreeFailure {
  what: string
  error: ApiError
}

/** StandardTreeState is the page's view of one standard. */
export interface StandardTreeState {
  standard: Ref<Standard | null>
  requirements: ShallowRef<TreeRequirement[]>
  levels: ShallowRef<Level[]>
  loading: Ref<boolean>
  /** error is the failure of the last full load (404: no such standard). */
  error: Ref<ApiError | null>
  /** busy is true while a change is being carried out. */
  busy: Ref<boolean>
  load(): Promise<void>
  refresh(): Promise<void>
  setStandard(standard: Standard): void
  /** acceptRequirement puts a requirement the server answered with in place of its row (the detail drawer saved it). */
  acceptRequirement(requirement: Requirement): void
  /**
   * createRequirement adds a requirement; `refused`, when given, sees a failure first and
   * returns true when it showed it (a field error beside its field), so it is not reported.
   */
  createRequirement(
    placement: NewPlacement,
    fields: { identifier: string; name: string; description: string },
    refused?: (error: ApiError) => boolean,
  ): Promise<boolean>
  updateRequirement(update: RequirementUpdate): Promise<boolean>
  moveRequirement(move: RequirementMove): Promise<boolean>
  deleteRequirement(id: string): Promise<boolean>
  toggleLevel(membership: LevelMembership): Promise<boolean>
  createLevel(fields: LevelFields): Promise<boolean>
  updateLevel(update: { id: string; changes: Partial<LevelFields> }): Promise<boolean>
  deleteLevel(id: string): Promise<boolean>
}

function asApiError(cause: unknown): ApiError {
  return cause instanceof ApiError ? cause : networkError(cause)
}

/** memberIds lists the requirements that are in `levelId` once `membership` is applied. */
export function memberIds(requirements: readonly TreeRequirement[], membership: LevelMembership): string[] {
  const ids = requirements.filter((r) => (r.levels ?? []).includes(membership.levelId)).map((r) => r.id)
  const rest = ids.filter((id) => id !== membership.requirementId)
  return membership.member ? [...rest, membership.requirementId] : rest
}

/**
 * useStandardTree loads the standard `id()` and returns its state and operations. `onFailure`
 * is told about every failed change (the tree is then read again, so it shows the truth).
 */
export function useStandardTree(id: () => string, onFailure: (failure: TreeFailure) => void, api = standardsApi): StandardTreeState {
  const standard = ref<Standard | null>(null)
  const requirements = shallowRef<TreeRequirement[]>([])
  const levels = shallowRef<Level[]>([])
  const loading = ref(false)
  const error = ref<ApiError | null>(null)
  const busy = ref(false)
  let generation = 0
  // Changes run one after another, each against the versions the previous one left.
  let queue: Promise<void> = Promise.resolve()

  function accept(tree: standardsApi.StandardTree): void {
    standard.value = tree.standard
    requirements.value = tree.requirements ?? []
    levels.value = tree.levels ?? []
  }

  async function load(): Promise<void> {
    const current = ++generation
    loading.value = true
    try {
      const tree = await api.fetchTree(id())
      if (current !== generation) return
      accept(tree)
      error.value = null
    } catch (cause) {
      if (current === generation) error.value = asApiError(cause)
    } finally {
      loading.value = false
    }
  }

  /** refresh reads the tree again without the loading state; a failure keeps what is shown. */
  async function refresh(): Promise<void> {
    const current = ++generation
    try {
      const tree = await api.fetchTree(id())
      if (current === generation) accept(tree)
    } catch {
      // keep what is shown; the next change or a reload tries again
    }
  }

  /** change runs one change after the ones before it; it resolves to whether it succeeded. */
  function change(what: string, run: () => Promise<void>, refused?: (error: ApiError) => boolean): Promise<boolean> {
    const next = queue.then(async () => {
      busy.value = true
      try {
        await run()
        return true
      } catch (cause) {
        const error = asApiError(cause)
        if (!refused?.(error)) onFailure({ what, error })
        await refresh()
        return false
      } finally {
        busy.value = false
      }
    })
    queue = next.then(() => undefined)
    return next
  }

  function replaceRequirement(answer: standardsApi.Requirement): void {
    requirements.value = requirements.value.map((r) => (r.id === answer.id ? { ...r, ...answer } : r))
  }

  return {
    standard,
    requirements,
    levels,
    loading,
    error,
    busy,
    load,
    refresh,
    setStandard: (next) => (standard.value = next),
    acceptRequirement: replaceRequirement,
    createRequirement: (placement, fields, refused) =>
      change(
        'standards.requirement.createFailed',
        async () => {
          const body: standardsApi.NewRequirement = { identifier: fields.identifier, name: fields.name }
          if (placement.position !== undefined) body.position = placement.position
          if (fields.description !== '') body.description = fields.description
          if (placement.parentId) body.parentId = placement.parentId
          await api.createRequirement(id(), body)
          await refresh()
        },
        refused,
      ),
    updateRequirement: ({ id: requirementId, changes }) =>
      change('standards.requirement.updateFailed', async () => {
        const requirement = requirements.value.find((r) => r.id === requirementId)
        if (!requirement) return
        replaceRequirement(await api.updateRequirement(id(), requirementId, { ...changes, version: requirement.version }))
      }),
    moveRequirement: ({ id: requirementId, parentId, position }) =>
      change('standards.requirement.moveFailed', async () => {
        await api.moveRequirement(id(), requirementId, parentId, position)
        await refresh()
      }),
    deleteRequirement: (requirementId) =>
      change('standards.requirement.deleteFailed', async () => {
        await api.deleteRequirement(id(), requirementId)
        await refresh()
      }),
    toggleLevel: (membership) =>
      change('standards.levels.saveFailed', async () => {
        const level = levels.value.find((l) => l.id === membership.levelId)
        if (!level) return
        const ids = memberIds(requirements.value, membership)
        const answer = await api.updateLevel(id(), level.id, { version: level.version, requirementIds: ids })
        levels.value = levels.value.map((l) => (l.id === answer.id ? answer : l))
        requirements.value = requirements.value.map((r) => {
          if (r.id !== membership.requirementId) return r
          const rest = (r.levels ?? []).filter((l) => l !== level.id)
          return { ...r, levels: membership.member ? [...rest, level.id] : rest }
        })
      }),
    createLevel: (fields) =>
      change('standards.levels.saveFailed', async () => {
        const body: standardsApi.NewLevel = { identifier: fields.identifier }
        if (fields.title !== '') body.title = fields.title
        if (fields.description !== '') body.description = fields.description
        const level = await api.createLevel(id(), body)
        levels.value = [...levels.value, level]
        void refreshStandardCounts()
      }),
    updateLevel: ({ id: levelId, changes }) =>
      change('standards.levels.saveFailed', async () => {
        const level = levels.value.find((l) => l.id === levelId)
        if (!level) return
        const answer = await api.updateLevel(id(), levelId, { ...changes, version: level.version })
        levels.value = levels.value.map((l) => (l.id === answer.id ? answer : l))
      }),
    deleteLevel: (levelId) =>
      change('standards.levels.deleteFailed', async () => {
        await api.deleteLevel(id(), levelId)
        await refresh()
      }),
  }

  // The level count shown in the header follows a new level.
  async function refreshStandardCounts(): Promise<void> {
    try {
      standard.value = await api.fetchStandard(id())
    } catch {
      // the counts catch up with the next load
    }
  }
}
