/**
 * Imported first by the bench's targets (target.ts, agent-target.ts), which run under tsx: tsx
 * turns on Node's source maps for the whole process, and the product (`node apps/server/dist/
 * main.js`) runs without them. With them on, every stack trace the server formats is mapped
 * through its files' source maps, each parsed on first use: the AI SDK releases a stream reader
 * with an error per model answer, and a fresh server spent some 35 ms of its first agent parsing
 * maps (a CPU profile of the 100-agent figure). Turned off here, before the server's modules load,
 * the targets measure the server as it runs in production.
 */
process.setSourceMapsEnabled(false);
