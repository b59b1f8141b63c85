import { agents, type Db } from '@tandem/db';
import { DEFAULT_SANDBOX_HOST, type ForwardedPort } from '@tandem/shared';
import { and, eq, sql } from 'drizzle-orm';
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

/** Makes a port of the agent's network namespace reachable on the worker (AgentNetwork). */
export interface PortForwarder {
  /** The host port on `host` leading to `port` inside the namespace. */
  forward(port: number, host: string): Promise<number>;
  unforward(port: number): Promise<void>;
}

/**
 * Keeps an agent's `cur_ports` equal to what its live shells listen on. Each shell reports only its
 * own ports, so the list is rebuilt from every shell's latest report: one server starting must not
 * hide another's port, and a shell that exits takes its ports with it.
 */
export class PortTracker {
  private readonly byShell = new Map<number, { shell: PortShell; ports: number[] }>();
  /** internal port → host port, for ports forwarded out of the agent's namespace. */
  private readonly hostPorts = new Map<number, number>();
  /** Updates run one at a time: forwarding awaits, and two reports must not interleave. */
  private queue: Promise<void> = Promise.resolve();

  /**
   * `forwarder`: the agent's network namespace, whose ports are not on the host by themselves.
   * Without one (process sandbox) a port is reached at `host` directly.
   */
  constructor(
    private readonly db: Db,
    private readonly agentId: string,
    private readonly host: string = DEFAULT_SANDBOX_HOST,
    private readonly forwarder: PortForwarder | null = null,
  ) {}

  /** A shell's ports changed (an exiting shell reports none). */
  update(shell: PortShell, ports: number[]): Promise<void> {
    const run = this.queue.then(() => this.apply(shell, ports));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async apply(shell: PortShell, ports: number[]): Promise<void> {
    if (ports.length) this.byShell.set(shell.pid, { shell, ports });
    else this.byShell.delete(shell.pid);
    await this.syncForwards();
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
  clear(): Promise<void> {
    const run = this.queue.then(async () => {
      this.byShell.clear();
      await this.syncForwards();
      await this.save();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Forwards ports that appeared, closes the forwards of ports no shell serves any more. */
  private async syncForwards(): Promise<void> {
    if (!this.forwarder) return;
    const served = new Set([...this.byShell.values()].flatMap((entry) => entry.ports));
    for (const port of [...this.hostPorts.keys()]) {
      if (served.has(port)) continue;
      this.hostPorts.delete(port);
      await this.forwarder.unforward(port);
    }
    for (const port of served) {
      if (this.hostPorts.has(port)) continue;
      try {
        this.hostPorts.set(port, await this.forwarder.forward(port, this.host));
      } catch (error) {
        // Listed without a host port, the preview says "not reachable" instead of the run failing.
        console.error(`could not forward port ${port} of agent ${this.agentId}`, error);
      }
    }
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
    const hostPort = this.hostPorts.get(port);
    return {
      internal_port: port,
      url: null,
      script_path: shell.scriptPath,
      tandem_pid: shell.pid,
      active: true,
      host: this.host,
      ...(hostPort ? { host_port: hostPort } : {}),
    };
  }

  /** Writes the list when it changed: most reports (a shell without ports, a clear) change nothing. */
  private async save(): Promise<void> {
    const list = this.current();
    await this.db
      .update(agents)
      .set({ curPorts: list })
      .where(and(eq(agents.id, this.agentId), sql`${agents.curPorts} <> ${JSON.stringify(list)}::jsonb`));
  }
}
