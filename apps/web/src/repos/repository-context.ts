import type { AccessLevel } from '@tandem/shared';
import { useOutletContext } from 'react-router';

/** What the repository page hands its tabs: the repository and the viewer's access level on it. */
export interface RepositoryContext {
  fullName: string;
  level: AccessLevel;
}

export function useRepositoryContext(): RepositoryContext {
  return useOutletContext<RepositoryContext>();
}

/** The tab a path under `/gh/{owner}/{repo}` belongs to. */
export function tabOf(pathname: string, fullName: string): 'agents' | 'settings' | 'logs' {
  const rest = pathname.split('/').slice(2 + fullName.split('/').length)[0] ?? '';
  if (rest === 'settings') return 'settings';
  if (rest === 'logs' || rest === 'log') return 'logs';
  return 'agents';
}
