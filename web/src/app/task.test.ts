import { describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors'
import { useTask } from './task'

describe('useTask', () => {
  it('is running while the call runs and keeps its failure until the next call', async () => {
    const task = useTask()
    let during = false
    expect(await task.run(async () => void (during = task.running.value))).toBe(true)
    expect(during).toBe(true)
    expect(task.running.value).toBe(false)
    expect(await task.run(async () => Promise.reject(new ApiError(500, 'internal_error', 'boom', 'r1')))).toBe(false)
    expect(task.failure.value?.error).toBe('internal_error')
    expect(await task.run(async () => Promise.reject(new TypeError('offline')))).toBe(false)
    expect(task.failure.value?.status).toBe(0)
    await task.run(async () => {})
    expect(task.failure.value).toBeNull()
  })

  it('may start running, for a call that begins as the component mounts', () => {
    expect(useTask(true).running.value).toBe(true)
  })
})
