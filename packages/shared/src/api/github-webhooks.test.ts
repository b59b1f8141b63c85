import { describe, expect, it } from 'vitest';
import { webhookPayloadSchema } from './github-webhooks.js';

describe('webhookPayloadSchema', () => {
  it('accepts deliveries GitHub sends without an action or an installation', () => {
    expect(
      webhookPayloadSchema('ping').safeParse({ zen: 'Keep it logically awesome.', hook_id: 1 }).success,
    ).toBe(true);
    const push = webhookPayloadSchema('push').safeParse({
      ref: 'refs/heads/main',
      after: 'a'.repeat(40),
      installation: { id: 5 },
    });
    expect(push.success && push.data).toMatchObject({ installation: { id: 5 } });
    expect(push.success && push.data.action).toBeUndefined();
    const create = webhookPayloadSchema('create').safeParse({ ref: 'v1', ref_type: 'tag' });
    expect(create.success && create.data).toEqual({ action: undefined, installation: undefined });
  });

  it('refuses a push without the commit it moved to', () => {
    expect(webhookPayloadSchema('push').safeParse({ ref: 'refs/heads/main' }).success).toBe(false);
  });

  it('refuses a checked event of the wrong shape', () => {
    expect(
      webhookPayloadSchema('issues').safeParse({ action: 'closed', issue: { number: 'x' } }).success,
    ).toBe(false);
  });
});
