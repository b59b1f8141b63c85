import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from './program.js';
import { CliApiError } from './api.js';

describe('tandem status', () => {
  let server: Server;
  let url: string;
  let answer: { status: number; body: unknown };
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const runStatus = async () => {
    const lines: string[] = [];
    await buildProgram('1.2.3', (l) => lines.push(l)).parseAsync(['node', 'tandem', 'status', '--url', url]);
    return lines;
  };

  it('prints the server health validated with the shared schema', async () => {
    answer = {
      status: 200,
      body: {
        status: 'ok',
        version: '0.1.0',
        database: { kind: 'pglite', reachable: true, latency_ms: 1 },
        sandbox: 'bubblewrap (bwrap 0.8.0)',
      },
    };
    expect(await runStatus()).toEqual([`${url}: ok (version 0.1.0, database pglite)`]);
  });

  it('maps HTTP failures to the shared messages', async () => {
    answer = { status: 503, body: { detail: 'down' } };
    await expect(runStatus()).rejects.toEqual(new CliApiError('Service Unavailable', 503));
  });

  it('rejects an answer that does not match the schema', async () => {
    answer = { status: 200, body: { status: 'ok' } };
    await expect(runStatus()).rejects.toThrow(/Unexpected answer from \/api\/health/);
  });
});
