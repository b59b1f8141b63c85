import { sign } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { parseWebhookHeaders, verifyWebhookSignature, WebhookHeaderError } from './webhooks.js';

describe('webhook signatures', () => {
  const body = '{"action":"opened","number":1}';

  it('accepts the right signature, as text or bytes', async () => {
    const signature = await sign('s3cret', body);
    expect(await verifyWebhookSignature('s3cret', body, signature)).toBe(true);
    expect(await verifyWebhookSignature('s3cret', Buffer.from(body), signature)).toBe(true);
  });

  it('rejects a wrong secret, a changed body, and missing or malformed headers', async () => {
    const signature = await sign('s3cret', body);
    expect(await verifyWebhookSignature('other', body, signature)).toBe(false);
    expect(await verifyWebhookSignature('s3cret', `${body} `, signature)).toBe(false);
    expect(await verifyWebhookSignature('', body, signature)).toBe(false);
    expect(await verifyWebhookSignature('s3cret', body, undefined)).toBe(false);
    expect(await verifyWebhookSignature('s3cret', body, '')).toBe(false);
    expect(await verifyWebhookSignature('s3cret', body, 'sha1=abc')).toBe(false);
    expect(await verifyWebhookSignature('s3cret', body, signature.slice(0, -2))).toBe(false);
    expect(await verifyWebhookSignature('s3cret', body, signature.toUpperCase())).toBe(false);
    expect(await verifyWebhookSignature('s3cret', Buffer.from([0xff, 0xfe]), signature)).toBe(false);
  });
});

describe('webhook headers', () => {
  it('reads the delivery headers in any letter case', () => {
    const expected = { event: 'push', deliveryId: 'd1', signature: 'sha256=x' };
    expect(
      parseWebhookHeaders({
        'x-github-event': 'push',
        'x-github-delivery': 'd1',
        'x-hub-signature-256': 'sha256=x',
      }),
    ).toEqual(expected);
    expect(
      parseWebhookHeaders(
        new Headers({
          'X-GitHub-Event': 'push',
          'X-GitHub-Delivery': 'd1',
          'X-Hub-Signature-256': 'sha256=x',
        }),
      ),
    ).toEqual(expected);
  });

  it('names the first missing header', () => {
    expect(() => parseWebhookHeaders({})).toThrow(new WebhookHeaderError('Missing X-GitHub-Event header'));
    expect(() => parseWebhookHeaders({ 'x-github-event': 'push' })).toThrow(
      'Missing X-GitHub-Delivery header',
    );
    expect(() => parseWebhookHeaders({ 'x-github-event': 'push', 'x-github-delivery': 'd1' })).toThrow(
      'Missing X-Hub-Signature-256 header',
    );
  });
});
