import { demoRequestListSchema } from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../testing/test-app.js';

describe('demo requests', () => {
  const testApp = useTestApp();
  let app: TestApp;
  beforeAll(() => {
    app = testApp();
  });

  const send = (payload: Record<string, unknown>) =>
    app.server.inject({ method: 'POST', url: '/api/demo/request', payload });

  it('stores a request and answers success', async () => {
    const res = await send({ email: ' cto@example.com ', message: 'Show us', lead_id: 'lead-1' });
    expect(res.json()).toEqual({ success: true });
  });

  it('rejects a missing or malformed email with the dialog messages', async () => {
    expect((await send({ email: '' })).json().detail[0]).toMatchObject({
      loc: ['body', 'email'],
      msg: 'Email is required',
    });
    expect((await send({ email: 'nope' })).json().detail[0]).toMatchObject({
      msg: 'Please enter a valid email address',
    });
    expect((await send({})).statusCode).toBe(422);
  });

  it('shows the requests to admins only', async () => {
    const ada = await app.signIn({ username: 'ada', admin: true });
    const bob = await app.signIn({ username: 'bob' });
    const list = await app.server.inject({
      url: '/api/admin/demo-requests',
      headers: { authorization: `Bearer ${ada.token}` },
    });
    const body = demoRequestListSchema.parse(list.json());
    expect(body.count).toBe(1);
    expect(body.requests[0]).toMatchObject({
      email: 'cto@example.com',
      message: 'Show us',
      lead_id: 'lead-1',
    });
    const denied = await app.server.inject({
      url: '/api/admin/demo-requests',
      headers: { authorization: `Bearer ${bob.token}` },
    });
    expect(denied.statusCode).toBe(403);
  });
});
