import { STORAGE_KEYS, userSchema, type User } from '@tandem/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiFetch } from '../api/client';
import { currentUserKey, useCurrentUser } from './current-user';

function storedInstallationId(): number | null {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEYS.installation);
    const id = raw === null ? NaN : Number(raw);
    return Number.isInteger(id) ? id : null;
  } catch {
    return null;
  }
}

/**
 * The installation the user works in: this browser's choice (local storage key `installation`,
 * platform §9) when the user still belongs to it, else the server's.
 */
export function activeInstallationId(user: User | null): number | null {
  if (!user) return null;
  const stored = storedInstallationId();
  if (stored !== null && user.installations.some((i) => i.id === stored)) return stored;
  return user.active_installation_id;
}

export function useActiveInstallation() {
  const { user } = useCurrentUser();
  const queryClient = useQueryClient();
  const id = activeInstallationId(user);
  const select = useCallback(
    async (installationId: number) => {
      try {
        window.localStorage.setItem(STORAGE_KEYS.installation, String(installationId));
      } catch {
        // the server copy below still records the choice
      }
      const updated = await apiFetch('/api/users/active-installation', {
        method: 'POST',
        body: { installation_id: installationId },
        schema: userSchema,
      });
      queryClient.setQueryData(currentUserKey, updated);
    },
    [queryClient],
  );
  return { id, installation: user?.installations.find((i) => i.id === id) ?? null, select };
}
