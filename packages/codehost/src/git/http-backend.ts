import { launch } from '@tandem/process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';

export interface BackendRequest {
  projectRoot: string;
  /** e.g. /acme/webapp.git/info/refs */
  pathInfo: string;
  method: string;
  query: string;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  remoteUser: string;
  body: Readable | undefined;
  /** Extra environment for git (the push hooks' configuration). */
  env?: Record<string, string>;
}

/**
 * Serves one smart-HTTP request through `git http-backend` (CGI): real git on both sides, so
 * clones, fetches and pushes behave exactly as against GitHub.
 */
export function runHttpBackend(
  request: BackendRequest,
  res: ServerResponse<IncomingMessage>,
  /** Runs after git finished and before the client sees the end of the response. */
  beforeEnd: () => Promise<void> = async () => {},
): Promise<void> {
  return new Promise((resolve) => {
    // Through the launcher (@tandem/process): a fork of this process blocks its event loop.
    const child = launch('git', ['http-backend'], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: request.projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        GIT_CONFIG_NOSYSTEM: '1',
        PATH_INFO: request.pathInfo,
        REQUEST_METHOD: request.method,
        QUERY_STRING: request.query,
        CONTENT_TYPE: request.contentType ?? '',
        HTTP_CONTENT_ENCODING: request.contentEncoding ?? '',
        REMOTE_USER: request.remoteUser,
        REMOTE_ADDR: '127.0.0.1',
        GIT_HTTP_MAX_REQUEST_BUFFER: '100M',
        ...request.env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let headerBuffer = Buffer.alloc(0);
    let headersDone = false;
    child.stdout?.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      headerBuffer = Buffer.concat([headerBuffer, chunk]);
      const end = headerBuffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      headersDone = true;
      let status = 200;
      for (const line of headerBuffer.subarray(0, end).toString('utf8').split('\r\n')) {
        const colon = line.indexOf(':');
        if (colon === -1) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 200;
        else res.setHeader(name, value);
      }
      res.statusCode = status;
      res.write(headerBuffer.subarray(end + 4));
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let finished = false;
    const fail = (reason: string) => {
      if (finished) return;
      finished = true;
      if (!headersDone) {
        res.statusCode = 500;
        res.end(`git http-backend failed (${reason}): ${stderr}`);
      } else res.destroy();
      resolve();
    };
    // Not started, or the launcher is gone: the client gets an error rather than a hung request.
    child.on('error', (error: Error) => fail(error.message));
    child.on('close', (code: number | null) => {
      if (!headersDone) {
        fail(String(code));
        return;
      }
      if (finished) return;
      finished = true;
      void beforeEnd().finally(() => {
        res.end();
        resolve();
      });
    });
    const stdin = child.stdin;
    if (request.body && stdin) request.body.pipe(stdin);
    else stdin?.end();
  });
}
