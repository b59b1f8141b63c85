import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for an OpenAI-compatible endpoint (Ollama, vLLM…), for tests of the `local/…`
 * model path. Speaks just enough of the chat-completions protocol for the AI SDK's
 * openai-compatible provider: JSON and SSE responses, tool calls, usage and bearer auth.
 */

export interface FakeChatResponse {
  content?: string;
  tool_calls?: { name: string; arguments: Record<string, unknown> }[];
  /** Default: 10 prompt tokens, 5 completion tokens, nothing cached. */
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
}

export interface ChatCompletionsRequest {
  model: string;
  messages: unknown[];
  tools?: unknown[];
}

export interface ChatCompletionsServer {
  /** Base URL ending in /v1. */
  url: string;
  /** Parsed JSON bodies of the chat-completions requests received, in order. */
  requests: unknown[];
  close(): Promise<void>;
}

export interface ChatCompletionsServerOptions {
  /** `index` counts chat-completions requests from 0. Throwing answers 500. */
  respond: (request: ChatCompletionsRequest, index: number) => FakeChatResponse | Promise<FakeChatResponse>;
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
  /** Model ids listed by GET /v1/models. */
  models?: string[];
}

export async function startChatCompletionsServer(
  options: ChatCompletionsServerOptions,
): Promise<ChatCompletionsServer> {
  const requests: unknown[] = [];

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      sendJson(res, 500, errorBody(error instanceof Error ? error.message : String(error), 'server_error'));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      sendJson(
        res,
        401,
        errorBody('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'),
      );
      return;
    }
    if (req.method === 'GET' && path === '/v1/models') {
      const data = (options.models ?? []).map((id) => ({
        id,
        object: 'model',
        created: 0,
        owned_by: 'tandem-test',
      }));
      sendJson(res, 200, { object: 'list', data });
      return;
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      sendJson(res, 404, errorBody(`No route for ${req.method} ${path}`, 'invalid_request_error'));
      return;
    }

    const body = parseBody(await readBody(req));
    if (!body) {
      sendJson(
        res,
        400,
        errorBody('Expected a JSON body with "model" and "messages".', 'invalid_request_error'),
      );
      return;
    }
    const index = requests.length;
    requests.push(body.raw);
    const answer = await options.respond(body.request, index);
    if (body.stream) streamAnswer(res, answer, body.request.model, index, body.includeUsage);
    else sendJson(res, 200, completion(answer, body.request.model, index));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Clients keep connections alive; without this, close() waits for them to time out.
        server.closeAllConnections();
      }),
  };
}

interface ParsedBody {
  raw: unknown;
  request: ChatCompletionsRequest;
  stream: boolean;
  includeUsage: boolean;
}

function parseBody(text: string): ParsedBody | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(raw) || typeof raw.model !== 'string' || !Array.isArray(raw.messages)) return undefined;
  const request: ChatCompletionsRequest = { model: raw.model, messages: raw.messages };
  if (Array.isArray(raw.tools)) request.tools = raw.tools;
  const streamOptions = isRecord(raw.stream_options) ? raw.stream_options : {};
  return { raw, request, stream: raw.stream === true, includeUsage: streamOptions.include_usage === true };
}

function completion(answer: FakeChatResponse, model: string, index: number): Record<string, unknown> {
  const toolCalls = (answer.tool_calls ?? []).map((call, i) => ({
    id: toolCallId(index, i),
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  return {
    id: `chatcmpl-${index}`,
    object: 'chat.completion',
    created: 0,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.content ?? null,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: finishReason(answer),
      },
    ],
    usage: usageOf(answer),
  };
}

function streamAnswer(
  res: ServerResponse,
  answer: FakeChatResponse,
  model: string,
  index: number,
  includeUsage: boolean,
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): void => {
    const data = {
      id: `chatcmpl-${index}`,
      object: 'chat.completion.chunk',
      created: 0,
      model,
      choices,
      ...extra,
    };
    res.write(`data: ${JSON.stringify(data)}\n\n`);
  };
  const delta = (value: Record<string, unknown>): void =>
    chunk([{ index: 0, delta: value, finish_reason: null }]);

  delta({ role: 'assistant', content: '' });
  // Several deltas per answer, as real servers send, so the client's reassembly is exercised.
  for (const piece of answer.content?.match(/\S+\s*|\s+/g) ?? []) delta({ content: piece });
  (answer.tool_calls ?? []).forEach((call, i) => {
    const args = JSON.stringify(call.arguments);
    const half = Math.ceil(args.length / 2);
    delta({
      tool_calls: [
        {
          index: i,
          id: toolCallId(index, i),
          type: 'function',
          function: { name: call.name, arguments: '' },
        },
      ],
    });
    delta({ tool_calls: [{ index: i, function: { arguments: args.slice(0, half) } }] });
    delta({ tool_calls: [{ index: i, function: { arguments: args.slice(half) } }] });
  });
  chunk([{ index: 0, delta: {}, finish_reason: finishReason(answer) }]);
  if (includeUsage) chunk([], { usage: usageOf(answer) });
  res.end('data: [DONE]\n\n');
}

const toolCallId = (request: number, i: number): string => `call_${request}_${i}`;

function finishReason(answer: FakeChatResponse): string {
  return answer.tool_calls?.length ? 'tool_calls' : 'stop';
}

function usageOf(answer: FakeChatResponse): Record<string, unknown> {
  const usage = answer.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
    prompt_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
  };
}

function errorBody(message: string, type: string, code: string | null = null): Record<string, unknown> {
  return { error: { message, type, param: null, code } };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
