import { chargeUnits, providerCostCents } from '@tandem/shared';
import { chargeAgentCall } from '../credits/ledger.js';
import { priceFor, toTokenUsage, type ResolvedModel } from '../model/index.js';
import type { RuntimeDeps } from './runtime-deps.js';

export type ReadyModel = Extract<ResolvedModel, { ok: true }>;
export type CallUsage = Parameters<typeof toTokenUsage>[0];
export type CallCharge = Parameters<typeof chargeAgentCall>[1];

/**
 * A model call's charge (its ledger units and the context's size, which decides when to summarize)
 * and the stats its answer is stored and shown with. `started` is the call's performance.now().
 */
export function pricedCall(
  model: ReadyModel,
  usage: CallUsage,
  started: number,
  description: string,
  on: { installationId: number; agentId: string },
) {
  const tokens = toTokenUsage(usage);
  const price = priceFor(model.option);
  return {
    charge: {
      installationId: on.installationId,
      agentId: on.agentId,
      units: chargeUnits(price, tokens),
      curTokens: tokens.inputTokens + tokens.cachedTokens + tokens.outputTokens + tokens.reasoningTokens,
      description,
    } satisfies CallCharge,
    stats: {
      input_tokens: tokens.inputTokens,
      cached_tokens: tokens.cachedTokens,
      output_tokens: tokens.outputTokens,
      reasoning_tokens: tokens.reasoningTokens,
      time: Math.round(performance.now() - started) / 1000,
      cost: Math.round(providerCostCents(price, tokens) * 10_000) / 10_000,
    },
  };
}

/** Charges a call on its own statement, and tells billing when an auto-fill may be due. */
export async function chargeCall(deps: RuntimeDeps, charge: CallCharge): Promise<void> {
  const { autoFillDue } = await chargeAgentCall(deps.db, charge);
  if (autoFillDue) deps.afterCharge?.(charge.installationId);
}
