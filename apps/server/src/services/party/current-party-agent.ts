import type { Db } from '@tandem/db';
import type { PartySettings } from '../../config/party.js';
import { requireCredits, type AgentRow } from '../agents/agent-access.js';
import type { SunsetGate } from '../sunset-gate.js';
import { findPartyAgent } from './find-party-agent.js';
import { startPartyAgent } from './start-party-agent.js';

interface ModelChoices {
  resolve(key: string | null | undefined, admin: boolean): { key: string; defaultLimit: number };
}

/**
 * The deployment's current party agent, started on first use when there is none yet (so a fresh
 * deployment's /party works without an admin first pressing a button). One start at a time in
 * this process: visitors arriving together share it rather than each starting an agent.
 */
export class CurrentPartyAgent {
  private starting: Promise<{ agent: AgentRow; repoName: string }> | null = null;

  constructor(
    private readonly deps: {
      db: Db;
      settings: PartySettings;
      models: ModelChoices;
      sunset: SunsetGate;
      enqueue: (agentId: string) => void;
      /** Stops a replaced party agent's run (it is archived): nobody talks to it any more. */
      interrupt: (agentId: string) => Promise<void>;
    },
  ) {}

  get settings(): PartySettings {
    return this.deps.settings;
  }

  async get(): Promise<{ agent: AgentRow; repoName: string }> {
    const found = await findPartyAgent(this.deps.db, this.deps.settings.repo);
    if (found) return found;
    this.starting ??= this.start(null).finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  /** Starts a fresh party agent (archiving the current one); `creator` null: see startPartyAgent. */
  async start(
    creator: { id: string; username: string } | null,
  ): Promise<{ agent: AgentRow; repoName: string }> {
    const { db, settings } = this.deps;
    this.deps.sunset.requireNewAgents();
    const before = await findPartyAgent(db, settings.repo);
    const { agentId } = await startPartyAgent(db, settings, this.deps.models, creator, (installationId) =>
      requireCredits(db, installationId),
    );
    this.deps.enqueue(agentId);
    if (before) await this.deps.interrupt(before.agent.id);
    const current = await findPartyAgent(db, settings.repo);
    if (!current) throw new Error(`party agent ${agentId} vanished right after it was started`);
    return current;
  }
}
