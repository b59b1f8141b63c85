import { AgentsManager } from '../agents/manager/AgentsManager';
import { usePageTitle } from '../lib/page-title';
import { useRepositoryContext } from './repository-context';

/** The Agents tab (the default): the agents manager scoped to the repository. */
export function RepositoryAgentsTab() {
  const { fullName } = useRepositoryContext();
  usePageTitle(`${fullName} · Agents ·`);
  return <AgentsManager key={fullName} repository={fullName} />;
}

export default RepositoryAgentsTab;
