import { describe, expect, it } from 'vitest';
import { webhookPayloadSchema } from './github-webhooks.js';

describe('webhookPayloadSchema', () => {
  it('accepts deliveries GitHub sends without an action or an installation', () => {
    expect(
      webhookPayloadSchema('ping').safeParse({ zen: 'Keep it logically awesome.', hook_id: 1 }).success,
    ).toBe(true);
    const push = webhookPayloadSchema('push').safeParse({ ref: 'refs/heads/main', installation: { id: 5 } });
    expect(push.success && push.data).toMatchObject({ action: undefined, installation: { id: 5 } });
  });

  it('refuses a checked event of the wrong shape', () => {
    expect(
      webhookPayloadSchema('issues').safeParse({ action: 'closed', issue: { number: 'x' } }).success,
    ).toBe(false);
  });
});
