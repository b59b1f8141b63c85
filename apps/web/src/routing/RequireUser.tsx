import { Navigate } from 'react-router';
import { useCurrentUser } from '../auth/current-user';
import { PageSpinner } from '../layout/PageSpinner';

/** Login-protected routes: back to / once we know nobody is signed in. */
export function RequireUser({ children }: { children: React.ReactNode }) {
  const { user, loading } = useCurrentUser();
  if (loading) return <PageSpinner />;
  if (!user) return <Navigate to="/" replace />;
  return children;
}
