import { existsSync, realpathSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { sandboxEtc } from './sandbox-etc.js';

/** The unprivileged user agents' commands run as (`whoami` → agent). */
export const SANDBOX_UID = 1000;
export const SANDBOX_GID = 1000;
export const SANDBOX_HOSTNAME = 'sandbox';

const found = new Map<string, string | null>();

/**
 * Locates a program on the server's PATH (the sandbox's own PATH is irrelevant: it runs on the
 * host). Remembered per PATH: every sandboxed command looks up bwrap, slirp4netns and unshare, and
 * scanning PATH each time is file-system work on the hot path for an answer that does not change.
 */
export function findProgram(name: string): string | null {
  const path = process.env.PATH ?? '';
  const key = `${name}\0${path}`;
  if (found.has(key)) return found.get(key)!;
  let result: string | null = null;
  for (const dir of [...path.split(delimiter).filter((d) => isAbsolute(d)), '/usr/bin', '/usr/local/bin']) {
    const candidate = join(dir, name);
    if (existsSync(candidate)) {
      result = candidate;
      break;
    }
  }
  found.set(key, result);
  return result;
}

export function findBwrap(): string | null {
  return findProgram('bwrap');
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

/**
 * The host's /etc entries programs need and that hold nothing secret: TLS roots, Debian's binary
 * symlinks, the dynamic loader's cache, time zone, MIME and service tables, fonts. Everything else
 * (shadow, gshadow, ssh host keys, sudoers, the host's gitconfig and npmrc, machine-id…) is absent.
 */
const HOST_ETC = [
  'alternatives',
  'ca-certificates',
  'ca-certificates.conf',
  'debian_version',
  'fonts',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'localtime',
  'mime.types',
  'os-release',
  'protocols',
  'python3',
  'services',
  // Not all of ssl/: ssl/private holds the host's TLS keys, readable by a sandbox user mapped to root.
  'ssl/certs',
  'ssl/openssl.cnf',
  'timezone',
];

/** e.g. /etc/python3.11: Debian's per-version Python config (sitecustomize). */
function hostEtcEntries(): string[] {
  const versioned = ['python3.9', 'python3.10', 'python3.11', 'python3.12', 'python3.13', 'python3.14'];
  return [...HOST_ETC, ...versioned].map((name) => `/etc/${name}`).filter((path) => existsSync(path));
}

/** A symlinked /etc/localtime etc. pointing outside /usr needs its target. */
function outsideTarget(path: string): string | null {
  try {
    const real = realpathSync(path);
    return isUnder(real, '/etc') || isUnder(real, '/usr') ? null : real;
  } catch {
    return null;
  }
}

export interface BwrapLayout {
  workspace: string;
  cwd: string;
  /**
   * 'isolated': a fresh network namespace with loopback only. 'joined': stay in the namespace bwrap
   * is started in (an agent's namespace, entered with nsenter). Never the host's own network.
   */
  net: 'isolated' | 'joined';
  /** The namespace reaches the outside through slirp4netns: resolv.conf names slirp's DNS. */
  dns: boolean;
  env: Record<string, string>;
  /** Host paths bound read-only at the same path (e.g. the host-owned git mirror for a fetch). */
  readOnlyBinds?: readonly string[];
}

/**
 * Arguments placed before the sandboxed program. The workspace is bound at its real host path so
 * paths printed inside the sandbox are valid outside it, and every other host directory (other
 * workspaces, the server's data dir) simply does not exist in the sandbox. The command runs as an
 * unprivileged user in its own user namespace; that user maps back to the server's uid, so files it
 * creates in the workspace stay the server's.
 */
export function bwrapArgs(layout: BwrapLayout): string[] {
  const args = ['--ro-bind', '/usr', '/usr', '--symlink', 'usr/bin', '/bin', '--symlink', 'usr/lib', '/lib'];
  if (existsSync('/usr/lib64')) args.push('--symlink', 'usr/lib64', '/lib64');
  // PATH lists /sbin; merged-/usr hosts keep it under /usr/sbin.
  if (existsSync('/usr/sbin')) args.push('--symlink', 'usr/sbin', '/sbin');
  const etc = sandboxEtc();
  for (const name of ['passwd', 'group', 'hosts', 'hostname', 'nsswitch.conf']) {
    args.push('--ro-bind', join(etc, name), `/etc/${name}`);
  }
  if (layout.dns) args.push('--ro-bind', join(etc, 'resolv.conf'), '/etc/resolv.conf');
  for (const path of hostEtcEntries()) {
    args.push('--ro-bind', path, path);
    const target = outsideTarget(path);
    if (target) args.push('--ro-bind', target, target);
  }
  const prefix = nodePrefix();
  if (prefix) args.push('--ro-bind', prefix, prefix);
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  args.push('--bind', layout.workspace, layout.workspace);
  for (const path of layout.readOnlyBinds ?? []) args.push('--ro-bind', path, path);
  // The root (and /etc in it) is bwrap's own tmpfs: read-only once every mount point exists.
  args.push('--remount-ro', '/');
  args.push('--chdir', layout.cwd);
  // --unshare-user, not the -try variant --unshare-all implies: never run as the server's uid.
  args.push('--unshare-all', '--unshare-user', '--uid', String(SANDBOX_UID), '--gid', String(SANDBOX_GID));
  args.push('--hostname', SANDBOX_HOSTNAME);
  if (layout.net === 'joined') args.push('--share-net');
  args.push('--die-with-parent', '--cap-drop', 'ALL', '--clearenv');
  for (const [key, value] of Object.entries(layout.env)) args.push('--setenv', key, value);
  return args;
}
