import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { AgentMetadata } from '@tandem/shared';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { useModelList } from '../manager/agents-api';
import { ModelSelect } from '../manager/ModelSelect';
import { useUpdateAgentSetting, type AgentSetting } from './use-update-agent-setting';

// A small basis lets both selectors share a phone-width row; the cap keeps them tidy when wide.
const SELECT_SX = { flex: '1 1 9rem', minWidth: '9rem', maxWidth: '16rem' } as const;

/** Model, review model and the context gauge with its summarization-limit editor. */
export function AgentSettingsBar(props: {
  agent: AgentMetadata;
  /** The summarization-limit editor (owner or admin). */
  canEdit: boolean;
  /** The model selectors; in party mode only admins change them. */
  canChooseModels: boolean;
  admin: boolean;
}) {
  const { agent, canEdit, canChooseModels, admin } = props;
  const update = useUpdateAgentSetting(agent.id);
  const models = useModelList();
  const [error, setError] = useState<string | null>(null);
  const [limitDraft, setLimitDraft] = useState<string | null>(null);

  const put = async (path: AgentSetting, body: Record<string, unknown>, failure: string) => {
    setError(null);
    try {
      await update(path, body);
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
      {/* useFlexGap: margins between wrapped items would indent the second row. */}
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        {models.data ? (
          <>
            <ModelSelect
              kind="core"
              label="Model"
              models={models.data.models}
              admin={admin}
              value={agent.model}
              disabled={!canChooseModels}
              sx={SELECT_SX}
              onChange={(model) =>
                void put('update-model', { model }, 'There was an error setting the agent model.')
              }
            />
            <ModelSelect
              kind="review"
              label="Review model"
              models={models.data.models}
              admin={admin}
              value={agent.review_model}
              disabled={!canChooseModels}
              sx={SELECT_SX}
              onChange={(model) =>
                void put(
                  'update-review-model',
                  { model },
                  'There was an error setting the agent review model.',
                )
              }
            />
          </>
        ) : null}
        {canEdit ? (
          <Box sx={{ minWidth: 200, flex: 1 }}>
            {limitDraft === null ? (
              <Tooltip title="Click to change the summarization limit">
                <Box
                  role="button"
                  tabIndex={0}
                  // The visible text starts the name (WCAG 2.5.3), then what the button does.
                  aria-label={`Context ${agent.cur_tokens.toLocaleString()} / ${agent.summarization_limit.toLocaleString()} tokens: change the summarization limit`}
                  onClick={() => setLimitDraft(String(agent.summarization_limit))}
                  onKeyDown={(e) => e.key === 'Enter' && setLimitDraft(String(agent.summarization_limit))}
                  sx={{ cursor: 'pointer' }}
                >
                  <Typography variant="caption" color="text.secondary">
                    Context {agent.cur_tokens.toLocaleString()} / {agent.summarization_limit.toLocaleString()}{' '}
                    tokens
                  </Typography>
                  <LinearProgress variant="determinate" value={used} aria-label="Context used" />
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
