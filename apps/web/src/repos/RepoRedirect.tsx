import { Navigate, useLocation, useParams } from 'react-router';
import { repoPagePath } from './repo-path';

/** `/repo/{owner}/{repo}` → its settings, `/repo/{owner}/{repo}/logs` → its logs (platform §2). */
export function RepoRedirect({ tab }: { tab: 'settings' | 'logs' }) {
  const { owner = '', repo = '' } = useParams();
  const { hash } = useLocation();
  return <Navigate to={`${repoPagePath(`${owner}/${repo}`, tab)}${hash}`} replace />;
}
