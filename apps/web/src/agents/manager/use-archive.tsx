import Link from '@mui/material/Link';
import type { AgentMetadata } from '@tandem/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { statusCountsKey } from '../status-counts';
import {
  agentListKey,
  agentListsKey,
  setArchived,
  withArchived,
  type AgentList,
  type AgentListRequest,
} from './agents-api';
import type { Notify } from './Notice';
import { keepsArchivedRows } from './search-term';

export const ARCHIVE_MESSAGES = {
  archived: 'Agent archived',
  unarchived: 'Agent unarchived',
  archiveFailed: 'Failed to archive agent',
  unarchiveFailed: 'Failed to unarchive agent',
} as const;
/** The refused-unarchive notice stays this long (workspace §8). */
export const CONFLICT_NOTICE_MS = 10_000;

/** 'Cannot unarchive: There is already an active Agent for #{number}', linking that agent. */
export function UnarchiveConflict(props: { htmlUrl: string; number: number }) {
  const internal = props.htmlUrl.startsWith('/');
  return (
    <>
      Cannot unarchive: There is already an{' '}
      {internal ? (
        <Link component={RouterLink} to={props.htmlUrl} color="inherit">
          active Agent
        </Link>
      ) : (
        <Link href={props.htmlUrl} color="inherit" target="_blank" rel="noreferrer">
          active Agent
        </Link>
      )}{' '}
      for #{props.number}
    </>
  );
}

/** Archive and unarchive from a list, updating the rows shown at once (workspace §4, §8). */
export function useArchiveToggle(request: AgentListRequest, notify: Notify) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);

  const toggle = async (agent: AgentMetadata) => {
    const archiving = !agent.archived;
    const failed = archiving ? ARCHIVE_MESSAGES.archiveFailed : ARCHIVE_MESSAGES.unarchiveFailed;
    setBusy(agent.id);
    try {
      const answer = await setArchived(agent.id, archiving);
      if (!answer.success) {
        notify(
          answer.error_data
            ? {
                message: (
                  <UnarchiveConflict htmlUrl={answer.error_data.html_url} number={answer.error_data.number} />
                ),
                severity: 'error',
                duration: CONFLICT_NOTICE_MS,
              }
            : { message: failed, severity: 'error' },
        );
        return;
      }
      const key = agentListKey(request);
      // A poll already under way must not bring the old row back.
      await queryClient.cancelQueries({ queryKey: key });
      void queryClient.invalidateQueries({ queryKey: agentListsKey, refetchType: 'none' });
      queryClient.setQueryData<AgentList>(
        key,
        (list) =>
          list && withArchived(list, agent.id, archiving, keepsArchivedRows(request.params.searchTerm)),
      );
      void queryClient.invalidateQueries({ queryKey: statusCountsKey });
      notify({
        message: archiving ? ARCHIVE_MESSAGES.archived : ARCHIVE_MESSAGES.unarchived,
        severity: 'success',
      });
    } catch (error) {
      console.warn(failed, error);
      notify({ message: failed, severity: 'error' });
    } finally {
      setBusy(null);
    }
  };

  return { busy, toggle };
}
