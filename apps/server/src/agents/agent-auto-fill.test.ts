import type { EmbeddedRunner } from '@tandem/agent';
import { billingAccounts } from '@tandem/db';
import { setupIntentSchema, transactionListSchema } from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeScriptFile } from '../testing/agent-harness.js';
import { createScriptedAgent, signInAda } from '../testing/scripted-agents.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

const scriptFile = writeScriptFile([
  { match: 'hello', steps: [{ tool_calls: [{ name: 'task_complete', args: { summary: 'Hi.' } }] }] },
]);

/** `user` starts an agent that says hello; resolves once its run and billing's checks are over. */
async function runHello(app: TestApp, user: TestUser): Promise<void> {
  const agentId = await createScriptedAgent(app, user, 'say hello');
  await (app.runner as EmbeddedRunner).idle(agentId);
  await app.autoFill.idle();
}

/** The runtime tells billing about a charge that may call for an auto-fill, so spending triggers it. */
describe('auto-fill after an agent run', () => {
  const testApp = useTestApp('pglite', {
    codeHost: true,
    billing: true,
    agents: { models: { scriptedModelFile: scriptFile } },
  });
  let app: TestApp;
  let ada: TestUser;
  const headers = () => ({ authorization: `Bearer ${ada.token}`, 'x-installation-id': '1000' });

  beforeAll(async () => {
    app = testApp();
    ada = await signInAda(app);
    const setup = setupIntentSchema.parse(
      (
        await app.server.inject({ method: 'POST', url: '/api/billing/setup-intent', headers: headers() })
      ).json(),
    );
    await fetch(`${app.billing.url}/v1/setup_intents/${setup.client_secret.split('_secret_')[0]}/confirm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.billing.publishableKey}` },
      body: new URLSearchParams({
        client_secret: setup.client_secret,
        'payment_method_data[card][number]': '4242424242424242',
        'payment_method_data[card][exp_month]': '1',
        'payment_method_data[card][exp_year]': '2040',
      }),
    });
    // Enabled in the database (saving through the API would top up at once): 3000 < 5000 credits.
    await app.database.db
      .update(billingAccounts)
      .set({ autoFillEnabled: true, autoFillThreshold: 5000, autoFillAmount: 2500 });
  });

  it('buys once when a run leaves the balance below the threshold', async () => {
    await runHello(app, ada);
    await app.billing.webhooks.idle();
    const ledger = transactionListSchema.parse(
      (
        await app.server.inject({
          url: '/api/billing/transactions?installation_id=1000&agents=false&other=false',
          headers: headers(),
        })
      ).json(),
    );
    expect(ledger.transactions.map((t) => [t.description, t.amount])).toEqual([
      ['Auto-fill: 2500 credits', 250_000],
    ]);
  });
});

/**
 * Billing is asked only after a charge that may call for an auto-fill (ChargeResult.autoFillDue):
 * an installation without auto-fill costs no claim statement per model call (issue 15).
 */
describe('an agent run where auto-fill is off', () => {
  const log: string[] = [];
  const testApp = useTestApp('pglite', {
    codeHost: true,
    billing: true,
    agents: { models: { scriptedModelFile: scriptFile } },
    logQuery: (query) => log.push(query),
  });

  it('never asks billing to claim an auto-fill', async () => {
    const app = testApp();
    const ada = await signInAda(app);
    await runHello(app, ada);
    // The run was charged, and billing was never asked.
    expect(log.filter((q) => /insert into "credit_transactions"/i.test(q)).length).toBeGreaterThan(0);
    expect(log.filter((q) => /update "billing_accounts"/i.test(q))).toEqual([]);
  });
});
