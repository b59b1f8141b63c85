import { createServer, type IncomingHttpHeaders } from 'node:http';

export interface ScriptedResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Never answer (to prove request timeouts). */
  hang?: boolean;
}

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. '/api/v3/repos/acme/webapp'. */
  url: string;
  /** performance.now() when the request arrived. */
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export type ScriptedServer = Awaited<ReturnType<typeof startScriptedServer>>;

/**
 * A local stand-in for a GitHub-compatible host on 127.0.0.1: it answers each request with the next
 * scripted response (the last one repeats) or from a routing function, recording what it was asked
 * and when. No test in this package talks to the internet.
 */
export async function startScriptedServer() {
  const requests: RecordedRequest[] = [];
  let script: ScriptedResponse[] = [{ status: 200, body: {} }];
  let router: ((req: RecordedRequest) => ScriptedResponse) | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        at: performance.now(),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const answer = router ? router(recorded) : script.length > 1 ? script.shift()! : script[0]!;
      if (answer.hang) return;
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('scripted server has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    /** Answers in order; the last answer repeats. Clears the recorded requests. */
    answer(...responses: ScriptedResponse[]) {
      script = responses;
      router = undefined;
      requests.length = 0;
    },
    /** Answers by looking at each request. Clears the recorded requests. */
    route(fn: (req: RecordedRequest) => ScriptedResponse) {
      router = fn;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The JSON body of a recorded GraphQL request. */
export function graphqlBody(req: RecordedRequest): { query: string; variables: Record<string, unknown> } {
  return JSON.parse(req.body) as { query: string; variables: Record<string, unknown> };
}
