import { anthropicProvider } from './anthropic.js';
import { openAiProvider } from './openai.js';
import type { ModelProvider, ProviderSettings } from './types.js';

/** The configured provider's adapter. */
export function createProvider(settings: ProviderSettings): ModelProvider {
  return settings.provider === 'anthropic' ? anthropicProvider(settings) : openAiProvider(settings);
}
