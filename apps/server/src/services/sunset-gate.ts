import {
  SUNSET_NO_MESSAGES,
  SUNSET_NO_NEW_AGENTS,
  SUNSET_NO_PURCHASES,
  sunsetAllowsBuying,
  sunsetClosed,
  type Sunset,
} from '@tandem/shared';
import { AppError } from '../errors/app-error.js';

/**
 * Sunset mode's rules on the server (DESIGN.md §9): once the last day has ended, no agent is
 * created or messaged, whether from the web app, the CLI or the code host. Agents already running
 * finish their current run; nothing is deleted.
 */
export class SunsetGate {
  constructor(
    readonly sunset: Sunset | null,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get closed(): boolean {
    return sunsetClosed(this.sunset, this.now());
  }

  requireNewAgents(): void {
    if (this.closed) throw new AppError('forbidden', SUNSET_NO_NEW_AGENTS);
  }

  requireMessages(): void {
    if (this.closed) throw new AppError('forbidden', SUNSET_NO_MESSAGES);
  }

  /** Buying (by hand or by auto-fill) stops in sunset mode unless the operator keeps it open. */
  get buyingAllowed(): boolean {
    return sunsetAllowsBuying(this.sunset, this.now());
  }

  requireBuying(): void {
    if (!this.buyingAllowed) throw new AppError('forbidden', SUNSET_NO_PURCHASES);
  }
}
