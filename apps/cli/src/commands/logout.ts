import type { Command } from 'commander';
import { logoutResponseSchema } from '@tandem/shared';
import { ApiClient } from '../api.js';
import { normalizeUrl, readConfig, writeConfig } from '../config.js';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { examples } from './shared.js';

export function registerLogout(program: Command, ctx: Context): void {
  program
    .command('logout')
    .description('Revoke the stored token on the server and remove it from the config file')
    .addHelpText('after', examples('tandem logout'))
    .action(async (_options: unknown, command: Command) => {
      const path = ctx.configFile();
      const stored = readConfig(path);
      if (!stored.token) {
        ctx.out('Not signed in (no stored token).');
        return;
      }
      const url = normalizeUrl(stored.url ?? ctx.target(command).url);
      // Revoked server-side too, so a copy of the token stops working (the server's logout does that).
      try {
        await new ApiClient(url, stored.token, `tandem-cli/${ctx.version}`).post(
          '/api/auth/logout',
          {},
          logoutResponseSchema,
        );
      } catch (error) {
        if (!(error instanceof CliError)) throw error;
        ctx.err(`Could not revoke the token on ${url} (${error.message}); removing it here anyway.`);
      }
      writeConfig({ url }, path);
      ctx.out(`Signed out of ${url}.`);
      if (ctx.env.TANDEM_TOKEN) ctx.err('Note: TANDEM_TOKEN is still set in this shell.');
    });
}
