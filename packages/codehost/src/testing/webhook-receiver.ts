import { createServer, type Server } from 'node:http';

export interface ReceivedDelivery {
  event: string;
  id: string;
  signature: string;
  body: string;
  payload: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

/** A local HTTP endpoint that records webhook deliveries; `failNext` makes it answer 500s first. */
export async function startWebhookReceiver() {
  const deliveries: ReceivedDelivery[] = [];
  let failures = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (failures > 0) {
        failures--;
        res.writeHead(500).end('down');
        return;
      }
      deliveries.push({
        event: String(req.headers['x-github-event']),
        id: String(req.headers['x-github-delivery']),
        signature: String(req.headers['x-hub-signature-256']),
        body,
        payload: JSON.parse(body) as Record<string, unknown>,
        headers: req.headers,
      });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    deliveries,
    failNext(count: number) {
      failures = count;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
