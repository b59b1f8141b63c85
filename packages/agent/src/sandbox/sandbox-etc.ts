import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** slirp4netns's built-in DNS forwarder, reachable from every namespace it serves. */
export const SLIRP_DNS = '10.0.2.3';

/**
 * The synthesized /etc files every sandbox sees, instead of the host's: one user (agent, uid 1000)
 * so `whoami`, npm and git find a name, the sandbox's own hostname, and resolv.conf naming slirp's
 * DNS. Contents are the same for every command.
 */
export function etcFiles(): Record<string, string> {
  return {
    passwd: [
      'root:x:0:0:root:/root:/usr/sbin/nologin',
      'agent:x:1000:1000:Tandem agent:/tmp:/bin/bash',
      'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin',
      '',
    ].join('\n'),
    group: ['root:x:0:', 'agent:x:1000:', 'nogroup:x:65534:', ''].join('\n'),
    hosts: [
      '127.0.0.1\tlocalhost',
      '127.0.1.1\tsandbox',
      '::1\tlocalhost ip6-localhost ip6-loopback',
      '',
    ].join('\n'),
    hostname: 'sandbox\n',
    'nsswitch.conf': ['passwd: files', 'group: files', 'shadow: files', 'hosts: files dns', ''].join('\n'),
    'resolv.conf': `nameserver ${SLIRP_DNS}\n`,
  };
}

/**
 * The directory holding etcFiles(): one per uid and content, reused by every server and test process
 * (so none leaves a directory behind), and trusted only when it is ours and nobody else can write
 * to it; otherwise a fresh private one.
 */
let cached: string | null = null;

export function sandboxEtc(): string {
  // Checked on every use: something may sweep the temp directory while the server runs.
  if (cached && existsSync(join(cached, 'passwd'))) return cached;
  const files = etcFiles();
  const hash = createHash('sha256').update(JSON.stringify(files)).digest('hex').slice(0, 12);
  const uid = process.getuid?.() ?? 0;
  let dir = join(tmpdir(), `tandem-sandbox-etc-${uid}-${hash}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o022) !== 0) {
    dir = mkdtempSync(join(tmpdir(), 'tandem-sandbox-etc-'));
  }
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    if (existsSync(path) && readFileSync(path, 'utf8') === content) continue;
    // Written aside and renamed: a concurrent process never binds a half-written file.
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, content, { mode: 0o644 });
    renameSync(temp, path);
  }
  cached = dir;
  return dir;
}
