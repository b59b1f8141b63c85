/**
 * The agent figures' client of Tandem's API: `node:http` with kept-alive connections. The load
 * generator shares the machine's two cores with the server it measures, and the many-agents
 * figure is judged against a fixed ideal (1 s), so whatever CPU the client spends is counted against
 * the server. `fetch` (undici's web streams, its WebAssembly parser, a decompressor for every
 * gzipped answer) cost the bench process 684 ms of CPU in a first round of 100 agents, a fifth of
 * the machine while the server started them (bench/README.md).
 */
import { Agent, request } from 'node:http';
import type { AgentTargetInfo } from './agent-target.js';

export type Api = (path: string, init?: { method?: string; body?: unknown }) => Promise<unknown>;

export function apiOf(target: AgentTargetInfo): Api {
  // No limit on sockets: the many-agents figure sends all its creations at once, as 100 users would.
  // An idle socket closes after 4 s, as fetch's do: the server's idle memory is read 60 s after a
  // batch (a hundred connections held open for it would count there), and each batch starts on
  // new connections, as a hundred users' requests would.
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity, timeout: 4000 });
  const base = new URL(target.url);
  return (path, init = {}) =>
    new Promise((resolve, reject) => {
      const body = init.body === undefined ? undefined : JSON.stringify(init.body);
      const req = request(
        {
          agent,
          host: base.hostname,
          port: base.port,
          path,
          method: init.method ?? 'GET',
          headers: {
            authorization: `Bearer ${target.token}`,
            'x-tandem-csrf': '1',
            // Uncompressed answers, as autocannon asks for them in the poll figures.
            'accept-encoding': 'identity',
            ...(body === undefined
              ? {}
              : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const status = res.statusCode ?? 0;
            if (status < 200 || status >= 300) {
              reject(new Error(`${path} answered ${status}: ${text}`));
              return;
            }
            try {
              resolve(JSON.parse(text));
            } catch (error) {
              reject(error instanceof Error ? error : new Error(String(error)));
            }
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}
