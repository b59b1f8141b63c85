/**
 * Exit codes, one per kind of failure, so scripts can tell "sign in again" from "no such agent"
 * without parsing messages. The table is documented in the README's CLI section and /docs/cli.
 */
export const EXIT = {
  ok: 0,
  generic: 1,
  usage: 2,
  notFound: 3,
  auth: 4,
  payment: 5,
  network: 6,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the user can act on: printed as one line on stderr, never as a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.generic,
    /** The HTTP status behind it, when it came from the API. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usageError = (message: string) => new CliError(message, EXIT.usage);
