import { createServer, type Server } from 'node:http';
import { createInterface } from 'node:readline';

/**
 * The two ways a token reaches `tandem login`: the /cli-auth-success page redirecting the browser
 * to a one-off server on 127.0.0.1 (with the `state` we gave it, so no other page can plant a
 * token), or the user pasting the token, or the page's config file, into the terminal.
 */

export interface CallbackServer {
  port: number;
  token: Promise<string>;
  close(): void;
}

const DONE_PAGE =
  '<!doctype html><html><head><meta charset="utf-8"><title>Tandem CLI</title></head>' +
  '<body style="font-family:sans-serif;margin:3em"><h1>Signed in to the Tandem CLI</h1>' +
  '<p>You can close this tab and return to your terminal.</p></body></html>';

/** Listens on 127.0.0.1 (never on other interfaces); undefined when that is not possible. */
export async function startCallbackServer(state: string): Promise<CallbackServer | undefined> {
  let deliver: (token: string) => void = () => undefined;
  const token = new Promise<string>((resolve) => (deliver = resolve));
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const given = url.searchParams.get('token');
    if (req.method !== 'GET' || url.pathname !== '/callback' || !given) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    if (url.searchParams.get('state') !== state) {
      res
        .writeHead(400, { 'content-type': 'text/plain' })
        .end('This sign-in link is stale: run tandem login again.\n');
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(DONE_PAGE);
    deliver(given);
  });
  const port = await new Promise<number | undefined>((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : undefined);
    });
  });
  if (port === undefined) return undefined;
  return {
    port,
    token,
    close: () => {
      server.close();
      server.closeAllConnections();
    },
  };
}

export interface Pasted {
  token: string;
  /** Set when the config file content (with its server URL) was pasted. */
  url?: string;
}

/**
 * Reads a pasted token (one line) or the page's config file (JSON over several lines) from a
 * stream. Resolves undefined at end of input without one; `stop()` ends the reading early.
 */
export function readPastedToken(input: NodeJS.ReadableStream): {
  result: Promise<Pasted | undefined>;
  stop(): void;
} {
  const lines = createInterface({ input, crlfDelay: Infinity, terminal: false });
  let buffer = '';
  const result = new Promise<Pasted | undefined>((resolve) => {
    lines.on('line', (raw) => {
      const line = raw.trim();
      if (!line && !buffer) return;
      if (buffer || line.startsWith('{')) {
        buffer += `${line}\n`;
        const pasted = parseConfig(buffer);
        if (pasted) resolve(pasted);
        return;
      }
      if (/^\S+$/.test(line)) resolve({ token: line });
    });
    lines.on('close', () => resolve(undefined));
  });
  return {
    result,
    stop: () => {
      lines.close();
      // Let the process end: readline leaves a paused TTY or pipe open otherwise.
      if ('destroy' in input && typeof input.destroy === 'function') (input.destroy as () => void)();
    },
  };
}

function parseConfig(text: string): Pasted | undefined {
  try {
    const json = JSON.parse(text) as { token?: unknown; url?: unknown };
    if (typeof json.token !== 'string' || !json.token) return undefined;
    return { token: json.token, ...(typeof json.url === 'string' ? { url: json.url } : {}) };
  } catch {
    return undefined;
  }
}
