import { readdir, readFile, readlink } from 'node:fs/promises';

/** Signals a pid or (negative) process group, ignoring processes that are already gone. */
export function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: already exited; EPERM cannot happen for our own children.
  }
}

/** Whether a process with this pid exists on this host (EPERM: it does, as another user's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readParents(): Promise<Map<number, number[]>> {
  const children = new Map<number, number[]>();
  const entries = await readdir('/proc').catch(() => [] as string[]);
  await Promise.all(
    entries
      .filter((name) => /^\d+$/.test(name))
      .map(async (name) => {
        const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => null);
        if (!stat) return;
        // comm (field 2) may contain spaces and parentheses: parse after the last ')'.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ppid = Number(fields[1]);
        const list = children.get(ppid) ?? [];
        list.push(Number(name));
        children.set(ppid, list);
      }),
  );
  return children;
}

/**
 * All live descendants of `root` (not root itself), parents before children. Walks ppid links from
 * the host's /proc, which also sees processes inside bwrap's pid namespace under their host pids.
 * (/proc/<pid>/task/<tid>/children needs CONFIG_PROC_CHILDREN, missing on some kernels.)
 */
export async function descendants(root: number): Promise<number[]> {
  const children = await readParents();
  const result: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    if (result.includes(pid)) continue;
    result.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return result;
}

const LISTEN = '0A';

function parseListening(table: string, inodes: Set<string>): number[] {
  const ports: number[] = [];
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
    const [local, state, inode] = [fields[1], fields[3], fields[9]];
    if (!local || state !== LISTEN || !inode || !inodes.has(inode)) continue;
    const port = parseInt(local.slice(local.lastIndexOf(':') + 1), 16);
    if (Number.isFinite(port)) ports.push(port);
  }
  return ports;
}

async function socketInodes(pid: number): Promise<string[]> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
  return links.flatMap((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1] ?? []);
}

/**
 * TCP ports in LISTEN state owned by `root` or its descendants. Socket tables are read through
 * /proc/<pid>/net, i.e. in each process's own network namespace, so a server inside bwrap without
 * --share-net is found as well.
 */
export async function listeningPorts(root: number): Promise<number[]> {
  const pids = [root, ...(await descendants(root))];
  const inodes = new Set((await Promise.all(pids.map(socketInodes))).flat());
  if (inodes.size === 0) return [];
  const namespaces = new Map<string, number>();
  for (const pid of pids) {
    const ns = await readlink(`/proc/${pid}/ns/net`).catch(() => null);
    if (ns && !namespaces.has(ns)) namespaces.set(ns, pid);
  }
  const ports = new Set<number>();
  for (const pid of namespaces.values()) {
    for (const table of ['tcp', 'tcp6']) {
      const text = await readFile(`/proc/${pid}/net/${table}`, 'utf8').catch(() => '');
      for (const port of parseListening(text, inodes)) ports.add(port);
    }
  }
  return [...ports].sort((a, b) => a - b);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface TerminateOptions {
  /** Resolves once the root process has exited. */
  exited: Promise<unknown>;
  /**
   * The root is the outer bwrap: it is left alone so that it outlives the sandbox's init, reaps it
   * and reports the command's status; signalling everything below it is enough to end the tree.
   */
  rootIsBwrap: boolean;
  graceMs?: number;
}

/**
 * SIGTERM the tree, SIGKILL whatever is left after the grace period. The process group covers
 * children that were orphaned; the ppid walk covers those that started a group of their own. The
 * walk repeats because a shell whose child was killed may start the next command.
 */
export async function terminateTree(root: number, options: TerminateOptions): Promise<void> {
  let exited = false;
  // A failed spawn rejects `exited`; for us that simply means there is nothing left to kill.
  const settled = options.exited.then(
    () => (exited = true),
    () => (exited = true),
  );
  const deadline = Date.now() + (options.graceMs ?? 2000);
  const signalled = new Set<number>();
  if (!options.rootIsBwrap) signalProcess(-root, 'SIGTERM');
  while (!exited && Date.now() < deadline) {
    for (const pid of await descendants(root)) {
      if (signalled.has(pid)) continue;
      signalled.add(pid);
      signalProcess(pid, 'SIGTERM');
    }
    await Promise.race([settled, sleep(50)]);
  }
  if (!exited) {
    for (const pid of await descendants(root)) signalProcess(pid, 'SIGKILL');
    signalProcess(root, 'SIGKILL');
  }
  signalProcess(-root, 'SIGKILL');
  await settled;
}
