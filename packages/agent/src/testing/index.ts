export {
  startChatCompletionsServer,
  type ChatCompletionsRequest,
  type ChatCompletionsServer,
  type ChatCompletionsServerOptions,
  type FakeChatResponse,
} from './chat-completions-server.js';
/** Where background sandbox preparations wait for a quiet server: tests hold it to see the waits. */
export { backgroundQuiet } from '../runtime/background-limit.js';
