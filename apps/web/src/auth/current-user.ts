import { logoutResponseSchema, userSchema, type User } from '@tandem/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

export const currentUserKey = queryKeys.currentUser;

/** The signed-in user, or null. Any failure to load the user counts as signed out (platform §4). */
export async function fetchCurrentUser(): Promise<User | null> {
  try {
    return await apiFetch('/api/users/me', { schema: userSchema });
  } catch (error) {
    if (error instanceof ApiError && error.status !== 401)
      console.warn('Could not load the current user', error);
    return null;
  }
}

export function useCurrentUser() {
  const query = useQuery({ queryKey: currentUserKey, queryFn: fetchCurrentUser, staleTime: 30_000 });
  return { user: query.data ?? null, loading: query.isPending };
}

export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await apiFetch('/api/auth/logout', { method: 'POST', schema: logoutResponseSchema });
    } catch (error) {
      // The session cookie is HttpOnly, so only the server can end it: ask it again who we are
      // rather than pretend to be signed out.
      console.warn('Could not log out', error);
      await queryClient.invalidateQueries({ queryKey: currentUserKey });
      return;
    }
    // Nothing cached for this user may show to whoever uses this tab next.
    queryClient.clear();
    queryClient.setQueryData(currentUserKey, null);
    await navigate('/');
  }, [navigate, queryClient]);
}
