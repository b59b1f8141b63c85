export {
  startChatCompletionsServer,
  type ChatCompletionsRequest,
  type ChatCompletionsServer,
  type ChatCompletionsServerOptions,
  type FakeChatResponse,
} from './chat-completions-server.js';
/**
 * Where background sandbox preparations take turns and wait for a quiet server: tests hold the
 * gate to see the waits.
 */
export { backgroundPrepares, backgroundQuiet, confirmationQuiet } from '../runtime/background-limit.js';
export { forgetTakenBranches } from '../runtime/prompt-facts.js';
export { prefetchStats } from '../runtime/instruction-reads.js';
