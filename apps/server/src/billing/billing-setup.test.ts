import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { setUpBilling } from './billing-setup.js';

describe('setUpBilling', () => {
  const logger = pino({ level: 'silent' });

  it('uses real Stripe with the configured keys and starts nothing', async () => {
    const setup = await setUpBilling(
      {
        billing: {
          kind: 'stripe',
          secretKey: 'sk_test_x',
          publishableKey: 'pk_test_x',
          webhookSecret: 'whsec_x',
        },
        dataDir: '/nonexistent',
        host: 'localhost',
      },
      logger,
    );
    expect(setup.local).toBeUndefined();
    expect(setup.provider).toMatchObject({
      mode: 'stripe',
      publishableKey: 'pk_test_x',
      webhookSecret: 'whsec_x',
      localApiUrl: null,
    });
  });

  it('starts the local stand-in with its state in the data dir, and keeps it across restarts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tandem-billing-'));
    try {
      const first = await setUpBilling(
        { billing: { kind: 'local', port: 0 }, dataDir, host: '127.0.0.1' },
        logger,
      );
      expect(first.provider.mode).toBe('local');
      expect(first.provider.localApiUrl).toBe(first.local!.url);
      const customer = await first.provider.stripe.customers.create({ metadata: { installation_id: '1' } });
      await first.local!.close();
      const second = await setUpBilling(
        { billing: { kind: 'local', port: 0 }, dataDir, host: '127.0.0.1' },
        logger,
      );
      expect((await second.provider.stripe.customers.retrieve(customer.id)).id).toBe(customer.id);
      await second.local!.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
