import { randomBytes } from 'node:crypto';
import { InvalidArgumentError, type Command } from 'commander';
import { userSchema } from '@tandem/shared';
import { ApiClient } from '../api.js';
import { readPastedToken, startCallbackServer } from '../auth-callback.js';
import { canOpenBrowser, openBrowser } from '../browser.js';
import { normalizeUrl, writeConfig } from '../config.js';
import type { Context } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { examples } from './shared.js';

interface LoginOptions {
  browser: boolean;
  timeout: number;
}

export function registerLogin(program: Command, ctx: Context): void {
  program
    .command('login')
    .description('Sign in through the browser and store the token (config file, mode 0600)')
    .addHelpText(
      'after',
      '\nWithout a browser here, open the printed URL anywhere and paste the token (or the config file\n' +
        'the page shows) into this terminal, or pipe it on standard input.\n',
    )
    .option('--no-browser', 'print the sign-in URL instead of opening a browser')
    .option('--timeout <seconds>', 'give up after this long', seconds, 300)
    .addHelpText(
      'after',
      examples(
        'tandem login --url https://tandem.example.com',
        'tandem login --no-browser            # paste the token shown on the page',
        'echo "$TOKEN" | tandem login         # a token you already have',
      ),
    )
    .action(async (options: LoginOptions, command: Command) => {
      const { url } = ctx.target(command);
      const state = randomBytes(16).toString('hex');
      const callback = await startCallbackServer(state);
      const page = new URL('/cli-auth-success', `${url}/`);
      if (callback) {
        page.searchParams.set('port', String(callback.port));
        page.searchParams.set('state', state);
      }
      const opened = options.browser && canOpenBrowser(ctx.env) && (await openBrowser(page.href, ctx.env));
      ctx.err(
        opened ? `Opened ${page.href} in your browser.` : `Open this page to sign in:\n\n  ${page.href}\n`,
      );
      ctx.err(
        ctx.stdin.isTTY
          ? 'Waiting for the browser… or paste the token the page shows and press Enter:'
          : 'Waiting for the browser, or for a token on standard input…',
      );

      const pasted = readPastedToken(ctx.stdin);
      let timer: NodeJS.Timeout | undefined;
      const sources: Promise<{ token: string; url?: string }>[] = [
        pasted.result.then(
          (p) => p ?? (callback ? new Promise<never>(() => undefined) : Promise.reject(noToken())),
        ),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new CliError('Timed out waiting for sign-in', EXIT.auth)),
            options.timeout * 1000,
          );
        }),
      ];
      if (callback) sources.push(callback.token.then((token) => ({ token })));
      let got: { token: string; url?: string };
      try {
        got = await Promise.race(sources);
      } finally {
        clearTimeout(timer);
        pasted.stop();
        callback?.close();
      }

      const serverUrl = got.url ? normalizeUrl(got.url) : url;
      const user = await new ApiClient(serverUrl, got.token, `tandem-cli/${ctx.version}`)
        .get('/api/users/me', userSchema)
        .catch((error: unknown) => {
          if (error instanceof CliError && error.exitCode === EXIT.auth)
            throw new CliError(
              `That token was not accepted by ${serverUrl} (expired or revoked)`,
              EXIT.auth,
              401,
            );
          throw error;
        });
      writeConfig({ url: serverUrl, token: got.token }, ctx.configFile());
      ctx.out(`Signed in to ${serverUrl} as ${user.username}.`);
      if (ctx.env.TANDEM_TOKEN)
        ctx.err('Note: TANDEM_TOKEN is set and takes precedence over the stored token.');
    });
}

const noToken = () => new CliError('No token given: paste the token the sign-in page shows', EXIT.auth);

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number of seconds');
  return n;
}
