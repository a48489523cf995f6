import { describe, expect, it } from 'vitest'
import { actorName, targetName } from './names'

describe('actorName', () => {
  it('labels the service, the command line and anonymous callers itself', () => {
    expect(actorName({ actor: 'system', actorName: 'System' })).toEqual({ key: 'audit.actors.system' })
    expect(actorName({ actor: 'cli:ops', actorName: 'Command line' })).toEqual({ key: 'audit.actors.cli', params: { user: 'ops' } })
    expect(actorName({ actor: 'anonymous', actorName: 'Anonymous' })).toEqual({ key: 'audit.actors.anonymous' })
  })

  it("shows a user's name, or the id when the server has none", () => {
    expect(actorName({ actor: 'u_1', actorName: 'Rita Reader' })).toEqual({ text: 'Rita Reader' })
    expect(actorName({ actor: 'u_gone', actorName: '' })).toEqual({ text: 'u_gone' })
  })
})

describe('targetName', () => {
  it('prefers the name and falls back to the id', () => {
    expect(targetName({ targetId: 'u_1', targetName: 'Rita Reader' })).toBe('Rita Reader')
    expect(targetName({ targetId: 'inv_1' })).toBe('inv_1')
    expect(targetName({})).toBe('')
  })
})
