import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { detectSandbox, type EmbeddedRunner } from '@tandem/agent';
import { agents, previewSubdomains } from '@tandem/db';
import {
  agentMetadataSchema,
  createAgentResponseSchema,
  forwardedPortsOf,
  previewResponseSchema,
  tempAuthTokenResponseSchema,
} from '@tandem/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, until, writeScriptFile } from '../testing/agent-harness.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

const PORT = await freePort();

/**
 * What the agent serves: a page, a JSON echo of what reached it, and an upgrade that echoes
 * bytes back (a stand-in for a dev server's WebSocket).
 */
const SERVER = `const http = require("http");
const s = http.createServer((q, r) => {
  if (q.url.startsWith("/echo")) {
    r.setHeader("content-type", "application/json");
    return r.end(JSON.stringify({ cookie: q.headers.cookie || null, host: q.headers.host, url: q.url, forwardedFor: q.headers["x-forwarded-for"] || null }));
  }
  r.setHeader("content-type", "text/html");
  r.end("<html><head><title>t</title></head><body><h1>Hello from the preview</h1></body></html>");
});
s.on("upgrade", (q, sock) => {
  sock.write("HTTP/1.1 101 Switching Protocols\\r\\nUpgrade: echo\\r\\nConnection: Upgrade\\r\\n\\r\\n");
  sock.pipe(sock);
});
s.listen(${PORT});`;

const scriptFile = writeScriptFile([
  {
    match: 'serve',
    steps: [
      {
        tool_calls: [{ name: 'run_command', args: { command: `node -e '${SERVER}'`, background: true } }],
      },
      { tool_calls: [{ name: 'task_complete', args: { summary: 'Serving.' } }] },
    ],
  },
]);

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

describe('previews of agent ports (/api/agent/preview, the preview origin, /api/temp-auth-token)', () => {
  const testApp = useTestApp('pglite', {
    codeHost: true,
    agents: { models: { scriptedModelFile: scriptFile } },
  });
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let agentId: string;
  let appPort: number;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

  /** A request to the server as a browser would send it to `{subdomain}.localhost`. */
  function preview(
    subdomain: string,
    path: string,
    options: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: appPort,
          path,
          method: options.method ?? 'GET',
          headers: { host: `${subdomain}.localhost:${appPort}`, ...options.headers },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.end(options.body);
    });
  }

  async function open(user: TestUser, port: number, subdomain?: string) {
    return app.server.inject({
      method: 'POST',
      url: '/api/agent/preview',
      headers: as(user),
      payload: { trajectory_id: agentId, port, ...(subdomain === undefined ? {} : { subdomain }) },
    });
  }

  async function signedInCookie(user: TestUser, subdomain: string): Promise<string> {
    const token = tempAuthTokenResponseSchema.parse(
      (await app.server.inject({ url: '/api/temp-auth-token', headers: as(user) })).json(),
    ).auth_token;
    const res = await preview(subdomain, '/__tandem/auth', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ token }),
    });
    expect(res.status).toBe(204);
    const cookie = [res.headers['set-cookie'] ?? []].flat()[0] ?? '';
    expect(cookie).toMatch(/HttpOnly; Secure; SameSite=None; Partitioned/);
    return cookie.split(';')[0]!;
  }

  beforeAll(async () => {
    app = testApp();
    await app.server.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.server.address();
    appPort = typeof address === 'object' && address ? address.port : 0;
    ada = await app.signIn({
      username: 'ada',
      installations: [{ id: 1000, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
    });
    bob = await app.signIn({ username: 'bob', installations: [{ id: 2000, name: 'other', role: 'admin' }] });
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: as(ada),
      payload: { body: 'serve the app', model: 'scripted' },
    });
    agentId = createAgentResponseSchema.parse(res.json()).agent_id;
    await (app.runner as EmbeddedRunner).idle(agentId);
    // The port is reported by the sandbox's next /proc scan.
    await until('the served port in cur_ports', async () => {
      const [row] = await app.database.db.select().from(agents).where(eq(agents.id, agentId));
      return forwardedPortsOf(row!.curPorts).some((p) => p.internal_port === PORT) || undefined;
    });
  }, 60_000);

  afterAll(async () => {
    // Stops the agent's background server with its sandbox.
    await (app.runner as EmbeddedRunner).stop();
  });

  it("lists the served port in the agent's cur_ports, with where to reach it", async () => {
    const meta = agentMetadataSchema.parse(
      (
        await app.server.inject({ url: `/api/agent/metadata?trajectory_id=${agentId}`, headers: as(ada) })
      ).json(),
    );
    expect(forwardedPortsOf(meta.cur_ports)).toEqual([
      expect.objectContaining({ internal_port: PORT, active: true, host: '127.0.0.1' }),
    ]);
  });

  it("keeps the agent's port inside its network namespace, forwarded to a host port (bubblewrap)", async (ctx) => {
    if ((await detectSandbox()).kind !== 'bubblewrap') return ctx.skip();
    const [row] = await app.database.db.select().from(agents).where(eq(agents.id, agentId));
    const [served] = forwardedPortsOf(row!.curPorts);
    expect(served?.host_port).toEqual(expect.any(Number));
    expect(served?.host_port).not.toBe(PORT);
    // Before, the agent shared the host's network: its server listened on the host's own PORT.
    const direct = await new Promise<string>((resolve) => {
      const socket = connect(PORT, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve('reachable');
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(direct).toBe('ECONNREFUSED');
  });

  it('registers a subdomain for the port and keeps it on the next call', async () => {
    const first = previewResponseSchema.parse((await open(ada, PORT)).json());
    expect(first.subdomain).toBe(`webapp-1-${PORT}`);
    expect(first.url).toBe(`http://webapp-1-${PORT}.localhost:${appPort}/`);
    const again = previewResponseSchema.parse((await open(ada, PORT)).json());
    expect(again.subdomain).toBe(first.subdomain);
  });

  it('shows the sign-in bridge to a frame without a cookie, and 401 to anything else', async () => {
    const sub = `webapp-1-${PORT}`;
    const page = await preview(sub, '/', { headers: { 'sec-fetch-dest': 'iframe' } });
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('/__tandem/bridge.js');
    expect(page.body).toContain(`"appOrigins":["http://localhost:${appPort}","http://127.0.0.1:${appPort}"]`);
    expect(page.headers['content-security-policy']).toContain(`frame-ancestors http://localhost:${appPort}`);
    const script = await preview(sub, '/app.js', { headers: { 'sec-fetch-dest': 'script' } });
    expect(script.status).toBe(401);
  });

  it('refuses a session token, a forged token and a cross-site sign-in', async () => {
    const sub = `webapp-1-${PORT}`;
    for (const token of [ada.token, 'forged']) {
      const res = await preview(sub, '/__tandem/auth', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      expect(res.status).toBe(401);
    }
    const crossSite = await preview(sub, '/__tandem/auth', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      body: '{}',
    });
    expect(crossSite.status).toBe(403);
    // And the preview token is no API credential.
    const token = tempAuthTokenResponseSchema.parse(
      (await app.server.inject({ url: '/api/temp-auth-token', headers: as(ada) })).json(),
    ).auth_token;
    const api = await app.server.inject({
      url: '/api/users/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(api.statusCode).toBe(401);
  });

  it("proxies the agent's server with the frame script added and the preview cookie removed", async () => {
    const sub = `webapp-1-${PORT}`;
    const cookie = await signedInCookie(ada, sub);
    const page = await preview(sub, '/', {
      headers: { cookie: `${cookie}; theirs=1`, 'sec-fetch-dest': 'iframe' },
    });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<head><script src="/__tandem/frame.js"></script><title>t</title>');
    expect(page.body).toContain('Hello from the preview');
    expect(Number(page.headers['content-length'])).toBe(Buffer.byteLength(page.body));
    expect(page.headers['content-security-policy']).toBe(
      `frame-ancestors http://localhost:${appPort} http://127.0.0.1:${appPort}`,
    );
    const echo = JSON.parse(
      (
        await preview(sub, '/echo?x=1', {
          headers: { cookie: `${cookie}; theirs=1`, 'x-forwarded-for': '6.6.6.6' },
        })
      ).body,
    );
    // The visitor is not a trusted proxy: its made-up X-Forwarded-For is replaced by its address.
    expect(echo).toEqual({
      cookie: 'theirs=1',
      host: `localhost:${PORT}`,
      url: '/echo?x=1',
      forwardedFor: '127.0.0.1',
    });
    const frame = await preview(sub, '/__tandem/frame.js');
    expect(frame.body).toContain('NAVIGATE_BACK');
    expect(frame.body).toContain('SCREENSHOT_REQUEST');
  });

  it('passes an upgrade (WebSocket) through to the agent server', async () => {
    const sub = `webapp-1-${PORT}`;
    const cookie = await signedInCookie(ada, sub);
    const echoed = await new Promise<string>((resolve, reject) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port: appPort,
        path: '/socket',
        headers: { host: `${sub}.localhost:${appPort}`, connection: 'Upgrade', upgrade: 'echo', cookie },
      });
      req.on('upgrade', (_res, socket) => {
        socket.once('data', (data: Buffer) => {
          resolve(data.toString());
          socket.destroy();
        });
        socket.write('ping');
      });
      req.on('error', reject);
      req.end();
    });
    expect(echoed).toBe('ping');
  });

  it('keeps previews to members of the installation', async () => {
    expect((await open(bob, PORT)).statusCode).toBe(404);
    const cookie = await signedInCookie(bob, `webapp-1-${PORT}`);
    const page = await preview(`webapp-1-${PORT}`, '/', { headers: { cookie, 'sec-fetch-dest': 'iframe' } });
    expect(page.status).toBe(403);
    expect(page.body).toContain('Preview ports are only viewable by members of the installation.');
  });

  it('renames with normalisation, numbers a taken name, and refuses an empty one', async () => {
    const renamed = previewResponseSchema.parse((await open(ada, PORT, 'My App!')).json());
    expect(renamed.subdomain).toBe('my-app');
    // The old address is gone with the rename.
    const cookie = await signedInCookie(ada, 'my-app');
    const old = await preview(`webapp-1-${PORT}`, '/', { headers: { cookie, 'sec-fetch-dest': 'iframe' } });
    expect(old.status).toBe(404);
    const other = previewResponseSchema.parse((await open(ada, 4444, 'my-app')).json());
    expect(other.subdomain).toBe('my-app-1');
    const empty = await open(ada, PORT, '!!!');
    expect(empty.statusCode).toBe(422);
    expect(empty.json().detail[0].msg).toBe('Preview subdomain cannot be empty');
  });

  it('says when a port is not served and when an entry has lapsed', async () => {
    const cookie = await signedInCookie(ada, 'my-app-1');
    const stopped = await preview('my-app-1', '/', { headers: { cookie, 'sec-fetch-dest': 'iframe' } });
    expect(stopped.status).toBe(502);
    expect(stopped.body).toContain('Port 4444 is not being served');
    await app.database.db
      .update(previewSubdomains)
      .set({ lastActiveAt: sql`now() - interval '71 minutes'` })
      .where(eq(previewSubdomains.subdomain, 'my-app-1'));
    const lapsedCookie = await signedInCookie(ada, 'my-app-1');
    const lapsed = await preview('my-app-1', '/', {
      headers: { cookie: lapsedCookie, 'sec-fetch-dest': 'iframe' },
    });
    expect(lapsed.status).toBe(404);
    // A lapsed name is free again.
    const reused = previewResponseSchema.parse((await open(ada, 5555, 'my-app-1')).json());
    expect(reused.subdomain).toBe('my-app-1');
  });

  it('sends /api/forward-port/{subdomain}{path} to the preview origin', async () => {
    const res = await app.server.inject({ url: '/api/forward-port/my-app/docs/page?q=1', headers: as(ada) });
    expect(res.statusCode).toBe(307);
    expect(res.headers.location).toBe(`http://my-app.localhost:${appPort}/docs/page?q=1`);
  });

  it('lets the workspace frame previews (CSP frame-src)', async () => {
    const res = await app.server.inject({ url: '/agents' });
    expect(res.headers['content-security-policy']).toContain(
      `frame-src 'self' http://*.localhost:${appPort}`,
    );
  });
});
