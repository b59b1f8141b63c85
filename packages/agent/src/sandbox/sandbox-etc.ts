import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** slirp4netns's built-in DNS forwarder, reachable from every namespace it serves. */
export const SLIRP_DNS = '10.0.2.3';

/**
 * The synthesized /etc files every sandbox sees, instead of the host's: one user (agent, uid 1000)
 * so `whoami`, npm and git find a name, the sandbox's own hostname, and resolv.conf naming slirp's
 * DNS. Contents are the same for every command, so they are written once per server process.
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

let dir: string | null = null;

/** The directory holding etcFiles(), created on first use and removed when the process exits. */
export function sandboxEtc(): string {
  // Re-created if something swept the temp directory while the server ran.
  if (dir && existsSync(join(dir, 'passwd'))) return dir;
  const created = mkdtempSync(join(tmpdir(), 'tandem-sandbox-etc-'));
  for (const [name, content] of Object.entries(etcFiles())) {
    writeFileSync(join(created, name), content, { mode: 0o644 });
  }
  if (!dir) process.once('exit', () => dir && rmSync(dir, { recursive: true, force: true }));
  dir = created;
  return created;
}
