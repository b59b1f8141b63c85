import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { watchHelper, whenReady } from './helper-process.js';

const START_TIMEOUT_MS = 10_000;

/**
 * Runs inside an agent's network namespace (entered with nsenter, host file system): accepts
 * connections on a Unix socket in a host directory the sandboxes cannot see, reads "PORT\n" and
 * joins the connection to localhost:PORT there. Unix sockets bound to a path are not tied to a
 * network namespace, which is what lets the server's TCP listener reach into the namespace. Tries
 * 127.0.0.1, then ::1 (dev servers binding "localhost" may pick either). Exits when stdin closes.
 */
const BRIDGE_SCRIPT = `
const net = require('net');
const fs = require('fs');
const path = process.argv[1];
try { fs.unlinkSync(path); } catch {}
const server = net.createServer((client) => {
  let head = Buffer.alloc(0);
  const onData = (chunk) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf(10);
    if (end < 0) { if (head.length > 8) client.destroy(); return; }
    client.off('data', onData);
    client.pause();
    const port = Number(head.subarray(0, end).toString());
    const rest = head.subarray(end + 1);
    if (!Number.isInteger(port) || port < 1 || port > 65535) return client.destroy();
    const attempt = (hosts) => {
      const upstream = net.connect(port, hosts[0]);
      let connected = false;
      upstream.on('error', () => {
        if (connected) return client.destroy();
        if (hosts.length > 1) attempt(hosts.slice(1)); else client.destroy();
      });
      upstream.once('connect', () => {
        connected = true;
        client.on('error', () => upstream.destroy());
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        if (rest.length) upstream.write(rest);
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
    };
    attempt(['127.0.0.1', '::1']);
  };
  client.on('data', onData);
  client.on('error', () => client.destroy());
});
server.listen(path, () => process.stdout.write('ready\\n'));
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
`;

/** The bridge process inside a namespace plus the host listeners that feed it. */
export class PortBridge {
  private readonly listeners = new Map<number, { server: Server; sockets: Set<Socket>; hostPort: number }>();

  private constructor(
    private readonly child: ChildProcess,
    private readonly socketPath: string,
    private readonly exited: Promise<void>,
  ) {}

  /** Starts the bridge with `enter` (e.g. nsenter into the namespace) placed before node. */
  static start(enter: readonly string[], socketPath: string): Promise<PortBridge> {
    const [file, ...args] = [...enter, process.execPath, '-e', BRIDGE_SCRIPT, socketPath];
    const child = spawn(file as string, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: '/usr/bin:/bin' },
    });
    child.stdin?.on('error', () => undefined);
    const { exited, stderr } = watchHelper(child);
    return whenReady(
      child,
      child.stdout as Readable,
      {
        timeoutMs: START_TIMEOUT_MS,
        failure: (reason) => `port bridge failed: ${reason} ${stderr().trim()}`.trim(),
      },
      () => new PortBridge(child, socketPath, exited),
    );
  }

  /** A TCP listener on `host` (port chosen by the system) leading to `port` in the namespace. */
  async forward(port: number, host: string): Promise<number> {
    const existing = this.listeners.get(port);
    if (existing) return existing.hostPort;
    const sockets = new Set<Socket>();
    const server = createServer((client) => {
      sockets.add(client);
      const upstream = createConnection(this.socketPath);
      sockets.add(upstream);
      upstream.write(`${port}\n`);
      client.pipe(upstream);
      upstream.pipe(client);
      const close = () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      for (const socket of [client, upstream]) {
        socket.on('error', close);
        socket.on('close', close);
      }
    });
    const hostPort = await new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
      });
    });
    this.listeners.set(port, { server, sockets, hostPort });
    return hostPort;
  }

  /** Closes the listener of `port` and every connection through it. */
  async unforward(port: number): Promise<void> {
    const entry = this.listeners.get(port);
    if (!entry) return;
    this.listeners.delete(port);
    for (const socket of entry.sockets) socket.destroy();
    await new Promise<void>((resolve) => entry.server.close(() => resolve()));
  }

  forwarded(): number[] {
    return [...this.listeners.keys()];
  }

  async stop(): Promise<void> {
    await Promise.all([...this.listeners.keys()].map((port) => this.unforward(port)));
    this.child.stdin?.destroy();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 1000);
    await this.exited;
    clearTimeout(timer);
  }
}
