import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../api/client'
import type * as standardsApi from './api'
import { levels, smallTree } from './components/fixtures'
import { standard } from './fixtures'
import { memberIds, useStandardTree } from './useStandardTree'

describe('memberIds', () => {
  it('adds or removes one requirement from the level’s current members', () => {
    const tree = smallTree()
    expect(memberIds(tree, { requirementId: 'c', levelId: 'l1', member: true })).toEqual(['a', 'a1', 'b1', 'c'])
    expect(memberIds(tree, { requirementId: 'a1', levelId: 'l1', member: false })).toEqual(['a', 'b1'])
  })
})

describe('useStandardTree', () => {
  function fakeApi() {
    let levelVersion = 1
    return {
      fetchTree: vi.fn(async () => ({ standard: standard(), requirements: smallTree(), levels: levels.map((l) => ({ ...l })) })),
      updateLevel: vi.fn(async (_id: string, levelId: string, body: { version: number; requirementIds?: string[] }) => {
        if (body.version !== levelVersion) throw new ApiError(409, 'version_conflict', 'stale', 'req')
        levelVersion++
        return { ...levels.find((l) => l.id === levelId)!, version: levelVersion, requirementCount: body.requirementIds?.length ?? 0 }
      }),
      updateRequirement: vi.fn(async (_id: string, requirementId: string, body: { name?: string; version: number }) => ({
        ...smallTree().find((r) => r.id === requirementId)!,
        name: body.name ?? '',
        version: body.version + 1,
      })),
    }
  }

  it('runs level toggles one after another, each with the version the previous one left', async () => {
    const api = fakeApi()
    const failures: unknown[] = []
    const tree = useStandardTree(() => 'st_1', (failure) => failures.push(failure), api as unknown as typeof standardsApi)
    await tree.load()
    const done = await Promise.all([
      tree.toggleLevel({ requirementId: 'c', levelId: 'l1', member: true }),
      tree.toggleLevel({ requirementId: 'a2', levelId: 'l1', member: true }),
    ])
    expect(done).toEqual([true, true])
    expect(failures).toEqual([])
    expect(api.updateLevel.mock.calls.map((call) => call[2].version)).toEqual([1, 2])
    expect(api.updateLevel.mock.calls[1]![2].requirementIds).toEqual(['a', 'a1', 'b1', 'c', 'a2'])
    expect(tree.levels.value.find((l) => l.id === 'l1')?.requirementCount).toBe(5)
    expect(tree.requirements.value.find((r) => r.id === 'a2')?.levels).toEqual(['l1'])
  })

  it('patches an edited requirement in place, keeping its place in the tree', async () => {
    const api = fakeApi()
    const tree = useStandardTree(() => 'st_1', () => {}, api as unknown as typeof standardsApi)
    await tree.load()
    await tree.updateRequirement({ id: 'a1', changes: { name: 'Renamed' } })
    expect(api.updateRequirement).toHaveBeenCalledWith('st_1', 'a1', { name: 'Renamed', version: 1 })
    const edited = tree.requirements.value.find((r) => r.id === 'a1')!
    expect(edited).toMatchObject({ name: 'Renamed', version: 2, parentId: 'a' })
    expect(api.fetchTree).toHaveBeenCalledTimes(1)
  })

  it('reports a failed change and reads the tree again', async () => {
    const api = fakeApi()
    api.updateLevel.mockRejectedValueOnce(new ApiError(409, 'conflict', 'Only a draft standard can be edited.', 'req'))
    const failures: { what: string }[] = []
    const tree = useStandardTree(() => 'st_1', (failure) => failures.push(failure), api as unknown as typeof standardsApi)
    await tree.load()
    expect(await tree.toggleLevel({ requirementId: 'c', levelId: 'l1', member: true })).toBe(false)
    expect(failures.map((f) => f.what)).toEqual(['standards.levels.saveFailed'])
    expect(api.fetchTree).toHaveBeenCalledTimes(2)
  })
})
