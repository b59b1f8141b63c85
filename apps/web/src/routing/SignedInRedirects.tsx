import { useEffect } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { activeInstallationId } from '../auth/active-installation';
import { useCurrentUser } from '../auth/current-user';
import { PageSpinner } from '../layout/PageSpinner';
import { parseTimeoutParam, signedInRedirect } from './redirect-rules';

/**
 * Applies platform §2's signed-in redirects, and the `timeout` parameter: a spinner for that long,
 * then a reload (without the parameter, so it does not loop).
 */
export function SignedInRedirects({ children }: { children: React.ReactNode }) {
  const { user, loading } = useCurrentUser();
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const timeoutMs = parseTimeoutParam(params.get('timeout'));

  const target =
    user && !loading && timeoutMs === null
      ? signedInRedirect(location.pathname, activeInstallationId(user) !== null)
      : null;

  useEffect(() => {
    if (target)
      void navigate({ pathname: target, search: location.search, hash: location.hash }, { replace: true });
  }, [target, navigate, location.search, location.hash]);

  useEffect(() => {
    if (timeoutMs === null) return;
    const timer = window.setTimeout(() => {
      const url = new URL(window.location.href);
      url.searchParams.delete('timeout');
      window.location.replace(url.toString());
    }, timeoutMs);
    return () => window.clearTimeout(timer);
  }, [timeoutMs]);

  if (timeoutMs !== null || target) return <PageSpinner />;
  return children;
}
