import { existsSync, realpathSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';

/** Locates bwrap on the server's PATH (the sandbox's own PATH is irrelevant: bwrap runs on the host). */
export function findBwrap(): string | null {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter((d) => isAbsolute(d));
  for (const dir of [...dirs, '/usr/bin', '/usr/local/bin']) {
    const candidate = join(dir, 'bwrap');
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);
}

/**
 * Node's install prefix when it lives outside /usr (nvm, /opt/node…): it must be bound read-only or
 * `node`/`npm` vanish inside the sandbox. Null when /usr already covers it.
 */
export function nodePrefix(): string | null {
  const prefix = dirname(dirname(process.execPath));
  return isUnder(process.execPath, '/usr') || prefix === '/' ? null : prefix;
}

/** resolv.conf is often a symlink into /run (systemd-resolved), which the sandbox does not have. */
function resolvConfTarget(): string | null {
  try {
    const real = realpathSync('/etc/resolv.conf');
    return isUnder(real, '/etc') || isUnder(real, '/usr') ? null : real;
  } catch {
    return null;
  }
}

export interface BwrapLayout {
  workspace: string;
  cwd: string;
  network: boolean;
  env: Record<string, string>;
  /** Host paths bound read-only at the same path (e.g. the host-owned git mirror for a fetch). */
  readOnlyBinds?: readonly string[];
}

/**
 * Arguments placed before the sandboxed program. The workspace is bound at its real host path so
 * paths printed inside the sandbox are valid outside it, and every other host directory (other
 * workspaces, the server's data dir) simply does not exist in the sandbox.
 */
export function bwrapArgs(layout: BwrapLayout): string[] {
  const args = ['--ro-bind', '/usr', '/usr', '--symlink', 'usr/bin', '/bin', '--symlink', 'usr/lib', '/lib'];
  if (existsSync('/usr/lib64')) args.push('--symlink', 'usr/lib64', '/lib64');
  // PATH lists /sbin; merged-/usr hosts keep it under /usr/sbin.
  if (existsSync('/usr/sbin')) args.push('--symlink', 'usr/sbin', '/sbin');
  args.push('--ro-bind', '/etc', '/etc');
  const prefix = nodePrefix();
  if (prefix) args.push('--ro-bind', prefix, prefix);
  if (layout.network) {
    const resolv = resolvConfTarget();
    if (resolv) args.push('--ro-bind-try', resolv, resolv);
  }
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  args.push('--bind', layout.workspace, layout.workspace);
  for (const path of layout.readOnlyBinds ?? []) args.push('--ro-bind', path, path);
  args.push('--chdir', layout.cwd);
  args.push('--unshare-all');
  if (layout.network) args.push('--share-net');
  args.push('--die-with-parent', '--cap-drop', 'ALL', '--clearenv');
  for (const [key, value] of Object.entries(layout.env)) args.push('--setenv', key, value);
  return args;
}
