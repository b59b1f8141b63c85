import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { agentMetadataSchema, modelListSchema, type AgentMetadata, type ModelList } from '@tandem/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, apiFetch } from '../../api/client';
import { metadataKey } from './agent-api';

const OFF = '_none';

/** Recommended models first; admin-only ones under 'Admin' (workspace §6). */
function modelOptions(list: ModelList, recommended: 'core_recommended' | 'review_recommended') {
  const regular = list.models.filter((m) => !m.admin_only);
  const ordered = [...regular.filter((m) => m[recommended]), ...regular.filter((m) => !m[recommended])];
  const admin = list.models.filter((m) => m.admin_only);
  const item = (m: ModelList['models'][number]) => (
    <MenuItem key={m.key} value={m.key} disabled={!m.available} title={m.unavailable_reason ?? undefined}>
      {m.label}
    </MenuItem>
  );
  return [
    ...ordered.map(item),
    ...(admin.length ? [<ListSubheader key="admin">Admin</ListSubheader>, ...admin.map(item)] : []),
  ];
}

/** Model, review model and the context gauge with its summarization-limit editor. */
export function AgentSettingsBar({ agent, canEdit }: { agent: AgentMetadata; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const models = useQuery({
    queryKey: ['models'],
    queryFn: () => apiFetch('/api/models', { schema: modelListSchema }),
  });
  const [error, setError] = useState<string | null>(null);
  const [limitDraft, setLimitDraft] = useState<string | null>(null);

  const put = async (path: string, body: Record<string, unknown>, failure: string) => {
    setError(null);
    try {
      const updated = await apiFetch(`/api/agent/${path}`, {
        method: 'PUT',
        body: { trajectory_id: agent.id, ...body },
        schema: agentMetadataSchema,
      });
      queryClient.setQueryData(metadataKey(agent.id), updated);
      return true;
    } catch (e) {
      setError(
        e instanceof ApiError && e.status === 400 && path.includes('summarization')
          ? e.serverMessage
          : failure,
      );
      return false;
    }
  };
  const used = Math.min(100, (agent.cur_tokens / Math.max(1, agent.summarization_limit)) * 100);
  const saveLimit = async () => {
    if (limitDraft === null) return;
    const ok = await put(
      'update-summarization-limit',
      { summarization_limit: limitDraft },
      'There was error setting the summarization limit. Please try again later.',
    );
    if (ok) setLimitDraft(null);
  };

  return (
    <Stack spacing={1}>
      {error ? <Alert severity="error">{error}</Alert> : null}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        {models.data ? (
          <>
            <TextField
              select
              size="small"
              label="Model"
              value={agent.model}
              disabled={!canEdit}
              onChange={(e) =>
                void put(
                  'update-model',
                  { model: e.target.value },
                  'There was an error setting the agent model.',
                )
              }
              sx={{ minWidth: 180 }}
            >
              {modelOptions(models.data, 'core_recommended')}
            </TextField>
            <TextField
              select
              size="small"
              label="Review model"
              value={agent.review_model ?? OFF}
              disabled={!canEdit}
              onChange={(e) =>
                void put(
                  'update-review-model',
                  { model: e.target.value === OFF ? null : e.target.value },
                  'There was an error setting the agent review model.',
                )
              }
              sx={{ minWidth: 180 }}
            >
              <MenuItem value={OFF}>Off</MenuItem>
              {modelOptions(models.data, 'review_recommended')}
            </TextField>
          </>
        ) : null}
        {canEdit ? (
          <Box sx={{ minWidth: 200, flex: 1 }}>
            {limitDraft === null ? (
              <Tooltip title="Click to change the summarization limit">
                <Box
                  role="button"
                  tabIndex={0}
                  aria-label="Context usage"
                  onClick={() => setLimitDraft(String(agent.summarization_limit))}
                  onKeyDown={(e) => e.key === 'Enter' && setLimitDraft(String(agent.summarization_limit))}
                  sx={{ cursor: 'pointer' }}
                >
                  <Typography variant="caption" color="text.secondary">
                    Context {agent.cur_tokens.toLocaleString()} / {agent.summarization_limit.toLocaleString()}{' '}
                    tokens
                  </Typography>
                  <LinearProgress variant="determinate" value={used} />
                </Box>
              </Tooltip>
            ) : (
              <TextField
                autoFocus
                size="small"
                label="Summarization limit"
                value={limitDraft}
                onChange={(e) => setLimitDraft(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') void saveLimit();
                  if (e.key === 'Escape') setLimitDraft(null);
                }}
              />
            )}
          </Box>
        ) : null}
      </Stack>
    </Stack>
  );
}
