import { Navigate } from 'react-router';
import { useCurrentUser } from '../auth/current-user';
import { PageSpinner } from '../layout/PageSpinner';

/**
 * Login-protected routes: back to / once we know nobody is signed in. With `admin`, the admin area
 * (platform §4): product admins only, everyone else back to / too (the server refuses them anyway).
 */
export function RequireUser({ children, admin = false }: { children: React.ReactNode; admin?: boolean }) {
  const { user, loading } = useCurrentUser();
  if (loading) return <PageSpinner />;
  if (!user || (admin && !user.admin)) return <Navigate to="/" replace />;
  return children;
}
