import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { agentPath } from './agent-display';

export interface RunningAgent {
  id: string;
  title: string;
  repo_name: string | null;
}

/** Agents that were running at the last poll and are not any more. */
export function agentsThatStopped(before: RunningAgent[], now: RunningAgent[]): RunningAgent[] {
  const still = new Set(now.map((a) => a.id));
  return before.filter((a) => !still.has(a.id));
}

export const readyMessage = (agent: RunningAgent) =>
  `Agent in ${agent.repo_name ?? 'your repository'} ready for feedback`;

/**
 * A browser notification when a running agent stops and waits for the user (workspace §2), only
 * when the user turned on Enable Notifications in Settings and the browser allows them (platform
 * §4); clicking it opens the agent.
 */
export function useReadyNotifications(running: RunningAgent[] | undefined, enabled: boolean): void {
  const navigate = useNavigate();
  const previous = useRef<RunningAgent[] | undefined>(undefined);
  useEffect(() => {
    if (!running) return;
    const before = previous.current;
    previous.current = running;
    if (!enabled || !before || typeof Notification === 'undefined' || Notification.permission !== 'granted')
      return;
    for (const agent of agentsThatStopped(before, running)) {
      const notification = new Notification(readyMessage(agent), { body: agent.title, tag: agent.id });
      notification.onclick = () => {
        window.focus();
        navigate(agentPath(agent));
      };
    }
  }, [running, enabled, navigate]);
}
