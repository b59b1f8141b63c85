export {
  startChatCompletionsServer,
  type ChatCompletionsRequest,
  type ChatCompletionsServer,
  type ChatCompletionsServerOptions,
  type FakeChatResponse,
} from './chat-completions-server.js';
