import type { Command } from 'commander';
import { ApiClient } from './api.js';
import { configPath, resolveTarget, type Target } from './config.js';
import { CliError, EXIT } from './errors.js';
import { colorEnabled, createStyle, type Style } from './style.js';

type Env = Record<string, string | undefined>;

/** What every command needs from the outside world, in one place so tests and main agree. */
export interface Context {
  version: string;
  env: Env;
  /** Prints one line (or several joined by newlines) on stdout. */
  out(text: string): void;
  /** Prints one line on stderr: progress and notes that must not pollute piped output. */
  err(text: string): void;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdoutIsTty: boolean;
  style: Style;
  configFile(): string;
  /** The server and token for this command (global --url, env, stored config). */
  target(command: Command): Target;
  /** An API client; `signedIn` (default) fails early with exit 4 when there is no token at all. */
  client(command: Command, signedIn?: boolean): ApiClient;
}

export function processContext(version: string): Context {
  const env = process.env;
  return {
    version,
    env,
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    stdin: process.stdin,
    stdoutIsTty: process.stdout.isTTY === true,
    style: createStyle(colorEnabled(process.stdout, env)),
    configFile: () => configPath(env),
    target: (command) => resolveTarget(globalUrl(command), env, configPath(env)),
    client(command, signedIn = true) {
      const target = this.target(command);
      if (signedIn && !target.token)
        throw new CliError(
          `Not signed in to ${target.url}: run "tandem login" (or set TANDEM_TOKEN)`,
          EXIT.auth,
        );
      return new ApiClient(target.url, target.token, `tandem-cli/${version}`);
    },
  };
}

function globalUrl(command: Command): string | undefined {
  const { url } = command.optsWithGlobals<{ url?: string }>();
  return url;
}
