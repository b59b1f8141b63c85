/**
 * What a viewer may do in the workspace (workspace §6). Party mode is the public shared agent of
 * /party, which reuses this workspace: anyone may chat there, but only admins steer it.
 */
export interface WorkspacePermissions {
  /** The message box and the subscriptions panel. */
  chat: boolean;
  /** The model and review-model selectors (disabled otherwise). */
  chooseModels: boolean;
  /** The summarization-limit editor of the context gauge. */
  editLimit: boolean;
  editTitle: boolean;
  /** A working agent's pause button; `spinner` shows that it works without offering the pause. */
  pause: 'button' | 'spinner' | 'none';
  runScripts: boolean;
  archive: boolean;
  spice: boolean;
}

export function workspacePermissions(viewer: {
  isOwn: boolean;
  admin: boolean;
  party: boolean;
}): WorkspacePermissions {
  const { isOwn, admin, party } = viewer;
  const steers = isOwn || admin;
  return {
    chat: steers || party,
    chooseModels: party ? admin : steers,
    editLimit: steers,
    editTitle: party ? admin : steers,
    pause: party && !admin ? 'spinner' : steers ? 'button' : 'none',
    runScripts: party ? admin : steers,
    archive: isOwn,
    spice: admin,
  };
}
