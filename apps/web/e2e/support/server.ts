import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../../../', import.meta.url));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * The environment of a browser-test server, whatever the developer's shell holds: the local code
 * host and billing stand-in on free ports, no model keys (so the offline demo model is offered and
 * preselected, see demo-model.e2e.ts), the scripted model from `scriptFile`.
 */
export async function testServerEnv(options: {
  port: number;
  dataDir: string;
  scriptFile: string;
}): Promise<NodeJS.ProcessEnv> {
  // No party agent and no sunset mode unless the test turns them on, whatever the shell holds.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^TANDEM_(PARTY|SUNSET)_/.test(key)),
  );
  return {
    ...inherited,
    PORT: String(options.port),
    CODEHOST_PORT: String(await freePort()),
    STRIPE_LOCAL_PORT: '0',
    STRIPE_SECRET_KEY: '',
    STRIPE_PUBLISHABLE_KEY: '',
    STRIPE_WEBHOOK_SECRET: '',
    // localhost, not 127.0.0.1: the product and the local code host hand each other localhost
    // URLs, and cookies only follow the same host name.
    HOST: 'localhost',
    TANDEM_DATA_DIR: options.dataDir,
    TANDEM_SCRIPTED_MODEL_FILE: options.scriptFile,
    ANTHROPIC_API_KEY: '',
    OPENAI_API_KEY: '',
    GOOGLE_GENERATIVE_AI_API_KEY: '',
    TANDEM_OPENAI_COMPATIBLE_URL: '',
    TANDEM_OPENAI_COMPATIBLE_MODELS: '',
    TANDEM_DEFAULT_MODEL: '',
    TANDEM_DEMO_MODEL: 'auto',
    LOG_LEVEL: 'warn',
  };
}

export interface RunningServer {
  url: string;
  /** Stops the server (SIGTERM, SIGKILL after 10 s); its data dir is the caller's. */
  stop(): Promise<void>;
}

/** Starts the built server with `env` and waits until /api/health answers (60 s at most). */
export async function startTandemServer(env: NodeJS.ProcessEnv): Promise<RunningServer> {
  const url = `http://localhost:${env.PORT}`;
  let output = '';
  const child = spawn(process.execPath, [join(root, 'apps/server/dist/main.js'), 'serve'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`server exited (${child.exitCode}) before it was ready:\n${output}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server did not become healthy within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
