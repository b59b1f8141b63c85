import { Command } from 'commander';
import type { Context } from './context.js';
import { EXIT } from './errors.js';
import { registerArchive } from './commands/archive.js';
import { registerCheckout } from './commands/checkout.js';
import { registerCreate } from './commands/create.js';
import { registerList } from './commands/list.js';
import { registerLogin } from './commands/login.js';
import { registerLogout } from './commands/logout.js';
import { registerMessage } from './commands/message.js';
import { registerPause } from './commands/pause.js';
import { registerRename } from './commands/rename.js';
import { registerStatus } from './commands/status.js';
import { registerUnarchive } from './commands/unarchive.js';
import { registerView } from './commands/view.js';

export { DEFAULT_SERVER_URL } from './config.js';

const EXIT_CODES_HELP = `
Environment:
  TANDEM_URL     server URL (instead of the stored one; --url wins over it)
  TANDEM_TOKEN   API token (instead of the stored one)
  NO_COLOR       no colours even on a terminal

Exit codes:
  0 success    1 error    2 usage or invalid input    3 not found
  4 not signed in, or token expired/revoked    5 out of credits (402)    6 server unreachable
`;

/** The `tandem` CLI: one file per command under commands/, all sharing the context's API client. */
export function buildProgram(ctx: Context): Command {
  const program = new Command('tandem')
    .description('Manage Tandem coding agents from the terminal')
    .version(ctx.version, '-V, --version')
    .option(
      '--url <url>',
      'Tandem server URL (default: TANDEM_URL, the stored URL, or http://localhost:8080)',
    )
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_CODES_HELP)
    // Commander's own failures (unknown option, missing argument) are usage errors: exit 2. Set
    // before the commands are added, which inherit it.
    .exitOverride((error) => {
      throw Object.assign(error, { exitCode: error.exitCode === 0 ? EXIT.ok : EXIT.usage });
    });
  for (const register of [
    registerLogin,
    registerLogout,
    registerList,
    registerCreate,
    registerMessage,
    registerView,
    registerPause,
    registerRename,
    registerArchive,
    registerUnarchive,
    registerCheckout,
    registerStatus,
  ])
    register(program, ctx);
  return program;
}
