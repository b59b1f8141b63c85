import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bwrapArgs, findBwrap } from './bwrap.js';
import { findSlirp } from './slirp.js';

export type SandboxKind = 'bubblewrap' | 'process';

export interface SandboxSupport {
  kind: SandboxKind;
  /**
   * e.g. 'bwrap 0.8.0, network: slirp4netns 1.2.0', 'bwrap not found on PATH', 'bwrap failed:
   * <first stderr line>'. Under bubblewrap it says whether agents can get network access at all.
   */
  detail: string;
}

const PROBE_TIMEOUT_MS = 10_000;

interface ProbeOutcome {
  status: number | null;
  stdout: string;
  stderr: string;
  error?: string;
}

interface ProbePlan {
  bwrap: string;
  versionArgs: string[];
  runArgs: string[];
  cleanup: () => void;
}

/** The probe runs the exact flags used for real commands: user namespaces are often disabled. */
function probePlan(bwrap: string): ProbePlan {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-bwrap-probe-'));
  const args = bwrapArgs({
    workspace: dir,
    cwd: dir,
    net: 'isolated',
    dns: false,
    env: { PATH: '/usr/bin:/bin' },
  });
  return {
    bwrap,
    versionArgs: ['--version'],
    runArgs: [...args, '/usr/bin/true'],
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const versionOf = (outcome: ProbeOutcome | null) =>
  /(\d+\.\d+(?:\.\d+)?)/.exec(outcome?.stdout ?? '')?.[1] ?? null;

function interpret(
  bwrap: string | null,
  version: ProbeOutcome | null,
  run: ProbeOutcome | null,
  slirp: ProbeOutcome | null,
): SandboxSupport {
  if (!bwrap) return { kind: 'process', detail: 'bwrap not found on PATH' };
  if (!run || run.status !== 0) {
    const reason = run?.error ?? run?.stderr.trim().split('\n')[0] ?? 'unknown error';
    return { kind: 'process', detail: `bwrap failed: ${reason || `exit status ${String(run?.status)}`}` };
  }
  const bwrapVersion = versionOf(version);
  const slirpVersion = slirp?.status === 0 ? versionOf(slirp) : null;
  // Without slirp4netns agents get no network at all, never the host's (docs/security/sandbox.md).
  const network = slirp
    ? slirp.status === 0
      ? `network: slirp4netns${slirpVersion ? ` ${slirpVersion}` : ''}`
      : `network: none (slirp4netns failed: ${slirp.error ?? slirp.stderr.trim().split('\n')[0]})`
    : 'network: none (slirp4netns not found on PATH)';
  return {
    kind: 'bubblewrap',
    detail: `${bwrapVersion ? `bwrap ${bwrapVersion}` : 'bwrap'}, ${network}`,
  };
}

function runAsync(file: string, args: string[]): Promise<ProbeOutcome> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin' } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ status: null, stdout, stderr, error: error.message });
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, ...(signal ? { error: `killed by ${signal}` } : {}) });
    });
  });
}

function runSync(file: string, args: string[]): ProbeOutcome {
  const result = spawnSync(file, args, {
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
    env: { PATH: '/usr/bin:/bin' },
  });
  return {
    status: result.status,
    stdout: result.stdout ?? '',
    stderr: result.stderr ?? '',
    ...(result.error ? { error: result.error.message } : {}),
  };
}

const settled = new Map<string, SandboxSupport>();
const probes = new Map<string, Promise<SandboxSupport>>();

function forced(force: SandboxKind | undefined): SandboxSupport | null {
  return force === 'process' ? { kind: 'process', detail: 'forced process mode' } : null;
}

function checkForced(force: SandboxKind | undefined, support: SandboxSupport): SandboxSupport {
  // Forcing bubblewrap where it cannot work must fail loudly rather than run unsandboxed.
  if (force === 'bubblewrap' && support.kind !== 'bubblewrap') {
    throw new Error(`bubblewrap sandbox forced but unusable: ${support.detail}`);
  }
  return support;
}

/**
 * Which sandbox this machine supports, probed once per `force` value. `force: 'process'` skips the
 * probe; `force: 'bubblewrap'` rejects when bwrap is unusable instead of silently degrading.
 */
export function detectSandbox(options: { force?: SandboxKind } = {}): Promise<SandboxSupport> {
  const key = options.force ?? 'auto';
  let probe = probes.get(key);
  if (!probe) {
    const known = settled.get(key);
    probe = known
      ? Promise.resolve(known)
      : (async () => {
          const support = forced(options.force) ?? (await probeAsync());
          settled.set(key, support);
          return support;
        })();
    probes.set(key, probe);
  }
  return probe.then((support) => checkForced(options.force, support));
}

/**
 * Synchronous variant for callers that cannot await (ShellSession.start). Shares the cache, so it
 * only blocks the event loop the first time and only when detectSandbox() was never awaited.
 */
export function detectSandboxSync(options: { force?: SandboxKind } = {}): SandboxSupport {
  const key = options.force ?? 'auto';
  let support = settled.get(key);
  if (!support) {
    support = forced(options.force) ?? probeSync();
    settled.set(key, support);
  }
  return checkForced(options.force, support);
}

async function probeAsync(): Promise<SandboxSupport> {
  const bwrap = findBwrap();
  if (!bwrap) return interpret(null, null, null, null);
  const plan = probePlan(bwrap);
  try {
    const version = await runAsync(bwrap, plan.versionArgs);
    const run = await runAsync(bwrap, plan.runArgs);
    const slirp = findSlirp();
    return interpret(bwrap, version, run, slirp ? await runAsync(slirp, ['--version']) : null);
  } finally {
    plan.cleanup();
  }
}

function probeSync(): SandboxSupport {
  const bwrap = findBwrap();
  if (!bwrap) return interpret(null, null, null, null);
  const plan = probePlan(bwrap);
  try {
    const slirp = findSlirp();
    return interpret(
      bwrap,
      runSync(bwrap, plan.versionArgs),
      runSync(bwrap, plan.runArgs),
      slirp ? runSync(slirp, ['--version']) : null,
    );
  } finally {
    plan.cleanup();
  }
}
