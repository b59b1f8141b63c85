import { forwardedPortsOf, type AgentMetadata } from '@tandem/shared';
import { useEffect, useRef } from 'react';
import type { WorkspaceTab } from '../tabs';

/** Ports the agent serves now. */
export const servedPorts = (agent: AgentMetadata): number[] =>
  forwardedPortsOf(agent.cur_ports)
    .filter((p) => p.active)
    .map((p) => p.internal_port);

/** Preview tabs for ports that were not served before. */
export function newPreviewTabs(ports: readonly number[], seen: ReadonlySet<number>): WorkspaceTab[] {
  return ports.filter((port) => !seen.has(port)).map((port) => ({ kind: 'preview', port }));
}

/**
 * A newly forwarded port opens its preview tab (workspace §2). Ports already served when the page
 * loaded open nothing: the user has seen them, or closed them, before.
 */
export function useAutoOpenPreview(
  agent: AgentMetadata | undefined,
  open: (tab: WorkspaceTab) => void,
): void {
  const seen = useRef<Set<number> | null>(null);
  const openRef = useRef(open);
  useEffect(() => {
    openRef.current = open;
  });
  const ports = agent ? servedPorts(agent).join(',') : null;
  useEffect(() => {
    if (ports === null) return;
    const current = ports ? ports.split(',').map(Number) : [];
    if (seen.current) for (const tab of newPreviewTabs(current, seen.current)) openRef.current(tab);
    // Cumulative: a dev server restarting on the same port does not pull its tab to the front.
    seen.current = new Set([...(seen.current ?? []), ...current]);
  }, [ports]);
}
