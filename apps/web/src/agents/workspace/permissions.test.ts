import { describe, expect, it } from 'vitest';
import { workspacePermissions } from './permissions';

describe('workspace permissions (workspace §6)', () => {
  it('lets the owner steer, and only the owner archive', () => {
    expect(workspacePermissions({ isOwn: true, admin: false, party: false })).toEqual({
      chat: true,
      chooseModels: true,
      editLimit: true,
      editTitle: true,
      pause: 'button',
      runScripts: true,
      archive: true,
      spice: false,
    });
    const admin = workspacePermissions({ isOwn: false, admin: true, party: false });
    expect(admin).toMatchObject({
      chat: true,
      chooseModels: true,
      editTitle: true,
      archive: false,
      spice: true,
    });
  });

  it('shows another member only the conversation', () => {
    expect(workspacePermissions({ isOwn: false, admin: false, party: false })).toMatchObject({
      chat: false,
      chooseModels: false,
      editLimit: false,
      editTitle: false,
      pause: 'none',
      runScripts: false,
    });
  });

  it('in party mode anyone chats, a spinner replaces the pause, and only admins steer', () => {
    expect(workspacePermissions({ isOwn: false, admin: false, party: true })).toMatchObject({
      chat: true,
      chooseModels: false,
      editTitle: false,
      pause: 'spinner',
      runScripts: false,
    });
    expect(workspacePermissions({ isOwn: false, admin: true, party: true })).toMatchObject({
      chooseModels: true,
      editTitle: true,
      pause: 'button',
    });
  });
});
