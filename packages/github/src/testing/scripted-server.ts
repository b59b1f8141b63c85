import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface ScriptedResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RecordedRequest {
  method: string;
  url: string;
  at: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A local stand-in for the GitHub API that answers each request with the next scripted response
 * (the last one repeats), recording what it was asked and when.
 */
export async function startScriptedServer() {
  const requests: RecordedRequest[] = [];
  let script: ScriptedResponse[] = [{ status: 200, body: {} }];
  let handler: ((req: RecordedRequest) => ScriptedResponse | undefined) | undefined;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        at: performance.now(),
        headers: req.headers,
        body,
      };
      requests.push(recorded);
      const answer = handler?.(recorded) ?? (script.length > 1 ? script.shift()! : script[0]!);
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Answers in order; the last answer repeats. */
    answer(...responses: ScriptedResponse[]) {
      script = responses;
      handler = undefined;
      requests.length = 0;
    },
    /** Answers by inspecting each request (for servers with several endpoints). */
    route(fn: (req: RecordedRequest) => ScriptedResponse | undefined) {
      handler = fn;
      requests.length = 0;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
