import type { SharedV3ProviderOptions } from '@ai-sdk/provider';
import type { AnthropicProviderOptions } from '@ai-sdk/anthropic';
import type { GoogleGenerativeAIProviderOptions } from '@ai-sdk/google';
import type { OpenAIResponsesProviderOptions } from '@ai-sdk/openai';
import type { OpenAICompatibleProviderOptions } from '@ai-sdk/openai-compatible';
import type { ModelOption } from '@tandem/shared';

/**
 * The catalog's reasoning settings in each provider's own option shape (to pass as
 * `generateText({ providerOptions })`), or undefined when the model has none.
 */
export function providerOptionsFor(option: ModelOption): SharedV3ProviderOptions | undefined {
  switch (option.provider) {
    case 'openai': {
      if (option.reasoning_effort === null) return undefined;
      const openai = { reasoningEffort: option.reasoning_effort } satisfies OpenAIResponsesProviderOptions;
      return { openai };
    }
    case 'openai-compatible': {
      if (option.reasoning_effort === null) return undefined;
      const openaiCompatible = {
        reasoningEffort: option.reasoning_effort,
      } satisfies OpenAICompatibleProviderOptions;
      return { openaiCompatible };
    }
    case 'anthropic': {
      if (option.thinking_budget === null) return undefined;
      const anthropic = {
        thinking: { type: 'enabled', budgetTokens: option.thinking_budget },
      } satisfies AnthropicProviderOptions;
      return { anthropic };
    }
    case 'google': {
      if (option.thinking_budget === null) return undefined;
      const google = {
        thinkingConfig: { thinkingBudget: option.thinking_budget },
      } satisfies GoogleGenerativeAIProviderOptions;
      return { google };
    }
  }
}
