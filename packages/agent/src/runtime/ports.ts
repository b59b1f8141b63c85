import { agents, type Db } from '@tandem/db';
import { DEFAULT_SANDBOX_HOST, type ForwardedPort } from '@tandem/shared';
import { eq } from 'drizzle-orm';
import { updateItemData } from './items.js';

export interface PortShell {
  actionUuid: string;
  pid: number;
  /** Already scrubbed of secrets. */
  command: string;
  scriptPath: string | null;
}

/** A running shell item's data: what the feed and its shell window show. */
export function shellItemData(
  shell: Pick<PortShell, 'command' | 'scriptPath'>,
  forwardedPorts: ForwardedPort[],
): Record<string, unknown> {
  return {
    active: true,
    pending: false,
    script_path: shell.scriptPath,
    command: shell.command,
    forwarded_ports: forwardedPorts,
  };
}

/**
 * Keeps an agent's `cur_ports` equal to what its live shells listen on. Each shell reports only its
 * own ports, so the list is rebuilt from every shell's latest report: one server starting must not
 * hide another's port, and a shell that exits takes its ports with it.
 */
export class PortTracker {
  private readonly byShell = new Map<number, { shell: PortShell; ports: number[] }>();

  constructor(
    private readonly db: Db,
    private readonly agentId: string,
    private readonly host: string = DEFAULT_SANDBOX_HOST,
  ) {}

  /** A shell's ports changed (an exiting shell reports none). */
  async update(shell: PortShell, ports: number[]): Promise<void> {
    if (ports.length) this.byShell.set(shell.pid, { shell, ports });
    else this.byShell.delete(shell.pid);
    await updateItemData(
      this.db,
      this.agentId,
      { actionUuid: shell.actionUuid, pid: shell.pid, itemType: 'shell' },
      shellItemData(
        shell,
        ports.map((port) => this.entry(shell, port)),
      ),
    );
    await this.save();
  }

  /** The sandbox is gone: nothing it served is reachable any more. */
  async clear(): Promise<void> {
    this.byShell.clear();
    await this.save();
  }

  /** Every port once, the first shell that reported it owning it. */
  current(): ForwardedPort[] {
    const seen = new Set<number>();
    const list: ForwardedPort[] = [];
    for (const { shell, ports } of this.byShell.values()) {
      for (const port of ports) {
        if (seen.has(port)) continue;
        seen.add(port);
        list.push(this.entry(shell, port));
      }
    }
    return list.sort((a, b) => a.internal_port - b.internal_port);
  }

  private entry(shell: PortShell, port: number): ForwardedPort {
    return {
      internal_port: port,
      url: null,
      script_path: shell.scriptPath,
      tandem_pid: shell.pid,
      active: true,
      host: this.host,
    };
  }

  private async save(): Promise<void> {
    await this.db.update(agents).set({ curPorts: this.current() }).where(eq(agents.id, this.agentId));
  }
}
