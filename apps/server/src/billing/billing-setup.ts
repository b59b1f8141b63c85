import { join } from 'node:path';
import type { Logger } from 'pino';
import Stripe from 'stripe';
import type { BillingConfig } from '../config/schema.js';
import { startLocalStripe, type RunningLocalStripe } from './local-stripe/server.js';

/** What the billing services and routes need: one Stripe client, whichever Stripe answers it. */
export interface BillingProvider {
  /** 'local': the embedded stand-in; the web app then shows its own card form instead of Elements. */
  mode: 'stripe' | 'local';
  stripe: Stripe;
  publishableKey: string;
  webhookSecret: string;
  /** The stand-in's URL, where the browser confirms cards in local mode; null with real Stripe. */
  localApiUrl: string | null;
}

export interface BillingSetup {
  provider: BillingProvider;
  /** The embedded stand-in, when no Stripe keys are configured. */
  local: RunningLocalStripe | undefined;
}

/** The official client; pointed at the stand-in through its host/port/protocol options. */
export function stripeClient(secretKey: string, local?: Pick<RunningLocalStripe, 'host' | 'port'>): Stripe {
  return new Stripe(secretKey, {
    telemetry: false,
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Tandem' },
    ...(local ? { host: local.host, port: local.port, protocol: 'http' as const } : {}),
  });
}

/** A provider over a running stand-in (the server's local mode, and tests). */
export function localBillingProvider(local: RunningLocalStripe): BillingProvider {
  return {
    mode: 'local',
    stripe: stripeClient(local.secretKey, local),
    publishableKey: local.publishableKey,
    webhookSecret: local.webhookSecret,
    localApiUrl: local.url,
  };
}

/**
 * Real Stripe when its keys are configured; otherwise the local stand-in is started beside the
 * server (state under `$TANDEM_DATA_DIR/billing`). Past this point nothing knows which it is.
 */
export async function setUpBilling(
  config: { billing: BillingConfig; dataDir: string; host: string },
  logger: Logger,
): Promise<BillingSetup> {
  if (config.billing.kind === 'stripe') {
    const { secretKey, publishableKey, webhookSecret } = config.billing;
    return {
      provider: {
        mode: 'stripe',
        stripe: stripeClient(secretKey),
        publishableKey,
        webhookSecret,
        localApiUrl: null,
      },
      local: undefined,
    };
  }
  const local = await startLocalStripe({
    dataDir: join(config.dataDir, 'billing'),
    port: config.billing.port,
    host: config.host,
    logger: logger.child({ component: 'local-billing' }),
  });
  return { provider: localBillingProvider(local), local };
}
