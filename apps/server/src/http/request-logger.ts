import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type ChildOptions = ChildLoggerOptions<never>;
type LogArgs = Parameters<FastifyBaseLogger['info']>;

/** What the factory needs of the parent: a pino logger (its level values and child()). */
export interface ParentLogger extends FastifyBaseLogger {
  levels?: { values: Record<string, number> };
}

/**
 * A request's logger, made real (the parent's child with the request's bindings) only when a line
 * at an enabled level is written. Fastify makes every request a pino child, and a route with its
 * own log level (the polls' 'warn') has pino rebuild all of that child's log methods: a few per
 * cent of a poll's cost (bench/README.md), for a logger that a successful poll never writes to.
 * Lines come out exactly as the eager child would write them, at the same level.
 */
export class LazyRequestLogger implements FastifyBaseLogger {
  private real: FastifyBaseLogger | undefined;
  private threshold: number;

  constructor(
    private readonly parent: ParentLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {
    this.threshold = levelValue(parent, options.level ?? parent.level);
  }

  /** The child itself, made on first use. */
  materialize(): FastifyBaseLogger {
    this.real ??= this.parent.child(this.bindings, this.options);
    return this.real;
  }

  get level(): string {
    return this.real?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.materialize().level = level;
    this.threshold = levelValue(this.parent, level);
  }

  isLevelEnabled(level: string): boolean {
    const value = levelValue(this.parent, level);
    return value !== Infinity && value >= this.threshold;
  }

  fatal(...args: LogArgs): void {
    if (this.isLevelEnabled('fatal')) this.materialize().fatal(...args);
  }
  error(...args: LogArgs): void {
    if (this.isLevelEnabled('error')) this.materialize().error(...args);
  }
  warn(...args: LogArgs): void {
    if (this.isLevelEnabled('warn')) this.materialize().warn(...args);
  }
  info(...args: LogArgs): void {
    if (this.isLevelEnabled('info')) this.materialize().info(...args);
  }
  debug(...args: LogArgs): void {
    if (this.isLevelEnabled('debug')) this.materialize().debug(...args);
  }
  trace(...args: LogArgs): void {
    if (this.isLevelEnabled('trace')) this.materialize().trace(...args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.materialize().child(bindings, options);
  }
}

/**
 * pino's number for a level name; 'silent', and any name of a logger that has no levels (Fastify's
 * null logger), is above every level, so nothing is written.
 */
function levelValue(parent: ParentLogger, level: string): number {
  return parent.levels?.values[level] ?? Infinity;
}

/** Fastify's childLoggerFactory: every request gets a LazyRequestLogger. */
export function lazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildOptions,
): FastifyBaseLogger {
  return new LazyRequestLogger(logger as ParentLogger, bindings, options);
}
