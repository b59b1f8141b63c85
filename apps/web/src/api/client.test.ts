import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, apiFetch } from './client';

const schema = z.object({ ok: z.boolean() });

function stubFetch(status: number, body: string, statusText = '') {
  const fetchMock = vi.fn(async () => new Response(body, { status, statusText }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('apiFetch', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('validates a successful response with the schema', async () => {
    stubFetch(200, '{"ok":true}');
    await expect(apiFetch('/api/x', { schema })).resolves.toEqual({ ok: true });
  });

  it('sends the CSRF header and JSON on writes, not on reads', async () => {
    const fetchMock = stubFetch(200, '{"ok":true}');
    await apiFetch('/api/x', { method: 'POST', body: { a: 1 }, schema });
    await apiFetch('/api/x', { schema });
    const [writeInit, readInit] = fetchMock.mock.calls.map((c) => (c as unknown as [string, RequestInit])[1]);
    expect(writeInit?.headers).toMatchObject({ 'x-tandem-csrf': '1', 'content-type': 'application/json' });
    expect(writeInit?.body).toBe('{"a":1}');
    expect(writeInit?.credentials).toBe('same-origin');
    expect(readInit?.headers).not.toHaveProperty('x-tandem-csrf');
  });

  it.each([
    [400, 'Bad Request'],
    [401, 'Unauthorized'],
    [403, 'Forbidden'],
    [404, 'Not Found'],
    [500, 'Internal Server Error'],
    [502, 'Bad Gateway'],
    [503, 'Service Unavailable'],
  ])('maps %i to %j', async (status, message) => {
    stubFetch(status, '{"detail":"server words","code":"x"}');
    const error = await failure(apiFetch('/api/x', { schema }));
    expect(error.message).toBe(message);
    expect(error.status).toBe(status);
    expect(error.serverMessage).toBe('server words');
  });

  it("maps 422 to 'Validation Error' and keeps the issues", async () => {
    stubFetch(422, '{"detail":[{"loc":["body","title"],"msg":"Title too short","type":"too_small"}]}');
    const error = await failure(apiFetch('/api/x', { schema }));
    expect(error.message).toBe('Validation Error');
    expect(error.detail).toEqual([{ loc: ['body', 'title'], msg: 'Title too short', type: 'too_small' }]);
    expect(error.serverMessage).toBe('Title too short');
  });

  it('gives status, status text and body for other failures', async () => {
    stubFetch(418, 'short and stout', "I'm a teapot");
    const error = await failure(apiFetch('/api/x', { schema }));
    expect(error.message).toBe("Request failed: 418 I'm a teapot: short and stout");
  });

  it('reports a network failure clearly', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const error = await failure(apiFetch('/api/x', { schema }));
    expect(error.status).toBe(0);
    expect(error.message).toMatch(/could not reach the server/);
  });

  it('treats a response that does not match the schema as an error', async () => {
    stubFetch(200, '{"ok":"yes"}');
    const error = await failure(apiFetch('/api/x', { schema }));
    expect(error.message).toMatch(/^Unexpected response from \/api\/x/);
  });
});
