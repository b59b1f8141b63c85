import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { MESSAGE_MAX_CHARS, SUNSET_NO_NEW_AGENTS, sunsetClosed, type User } from '@tandem/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type KeyboardEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useClientConfig } from '../../api/config';
import { currentUserKey } from '../../auth/current-user';
import { OutOfCreditsNotice } from '../OutOfCreditsNotice';
import { agentListsKey, useModelList } from './agents-api';
import { agentPageUrl, createAgent, CREATE_MESSAGES, type CreateFailure } from './create-agent';
import { useImageAttachments } from './use-image-attachments';
import { ImageAttachments } from './ImageAttachments';
import { useRepositorySettings } from '../../repos/use-repository-settings';
import {
  chooseModel,
  chooseReviewModel,
  readPreferredModel,
  readPreferredReviewModel,
  storePreferredModel,
  storePreferredReviewModel,
} from './model-choice';
import { BranchPicker } from './BranchPicker';
import { ModelSelect } from './ModelSelect';
import { ModelSetupHint } from './ModelSetupHint';
import type { Notify } from './Notice';
import {
  initialRepository,
  orderRepositories,
  readLastUsedRepos,
  rememberRepository,
  repositoryError,
} from './repositories';
import { RepositoryField } from './RepositoryField';
import { SupervisorFields, type SupervisorChoice } from './SupervisorFields';

const MESSAGE_MAX_ROWS = 20;
/** Nothing to send: the server's own words for it. */
export const EMPTY_MESSAGE = 'Write a message or attach an image';

function FailureAlert(props: {
  failure: CreateFailure;
  settingsUrl: string | undefined;
  onClose: () => void;
}) {
  if (props.failure.kind === 'credits') {
    return <OutOfCreditsNotice onClose={props.onClose} />;
  }
  return (
    <Alert severity="error" onClose={props.onClose}>
      {props.failure.text}
      {props.failure.settingsLink && props.settingsUrl ? (
        <>
          {' '}
          <Link href={props.settingsUrl} target="_blank" rel="noreferrer">
            App settings
          </Link>
        </>
      ) : null}
    </Alert>
  );
}

/**
 * The new-agent form (workspace §2, §4, §5): repository, model and reviewer, message and images.
 * Create (or Enter) opens the new agent; Ctrl/Cmd+Enter creates it in the background and stays.
 */
export function NewAgentForm(props: { user: User; repository?: string | undefined; notify: Notify }) {
  const { user, notify } = props;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const models = useModelList();
  const config = useClientConfig().data;
  const settingsUrl = config?.install_url;
  // After sunset mode's last day the server refuses new agents: say so before anyone types.
  const closed = sunsetClosed(config?.sunset ?? null);
  const smallScreen = useMediaQuery(useTheme().breakpoints.down('sm'));

  const [lastUsed] = useState(readLastUsedRepos);
  const [repository, setRepository] = useState(() =>
    initialRepository(user.repositories, lastUsed, props.repository),
  );
  const [repositoryProblem, setRepositoryProblem] = useState<string | null>(null);
  const [message, setMessage] = useState('');
  const attachments = useImageAttachments();
  const { images, problem: imageProblem } = attachments;
  const [messageProblem, setMessageProblem] = useState<string | null>(null);
  // Null until the user picks: until then the stored preference (or the default) applies.
  const [modelPick, setModelPick] = useState<string | null>(null);
  const [reviewPick, setReviewPick] = useState<{ key: string | null } | null>(null);
  const [creating, setCreating] = useState(false);
  const [baseBranch, setBaseBranch] = useState<string | null>(null);
  const [failure, setFailure] = useState<CreateFailure | null>(null);
  const [supervision, setSupervision] = useState<SupervisorChoice>({
    isSupervisor: false,
    supervisorId: null,
  });

  // The repository's defaults (its settings): after the user's stored choice, before the server's.
  const knownRepository = user.repositories.find((r) => r.toLowerCase() === repository.trim().toLowerCase());
  const repoDefaults = useRepositorySettings(knownRepository ?? '', {
    enabled: !!knownRepository,
    optional: true,
  }).data;
  const list = models.data?.models;
  const defaults = models.data
    ? {
        model: { server: models.data.default_model, repository: repoDefaults?.default_model },
        review: { server: models.data.default_review_model, repository: repoDefaults?.default_review_model },
      }
    : null;
  const model =
    modelPick ??
    (list && defaults ? chooseModel(readPreferredModel(), list, user.admin, defaults.model) : undefined);
  const reviewModel = reviewPick
    ? reviewPick.key
    : list && defaults
      ? chooseReviewModel(readPreferredReviewModel(), list, user.admin, defaults.review)
      : undefined;
  const canSend = message.trim().length > 0 || images.length > 0;

  const submit = async (background: boolean) => {
    if (creating || closed) return;
    const problem = repositoryError(repository);
    setRepositoryProblem(problem);
    setMessageProblem(canSend ? null : EMPTY_MESSAGE);
    if (problem || !canSend) return;
    const typed = repository.trim();
    const chosen = user.repositories.find((repo) => repo.toLowerCase() === typed.toLowerCase()) ?? typed;
    setCreating(true);
    setFailure(null);
    const result = await createAgent(user, {
      repository: chosen,
      body: message,
      images,
      model,
      reviewModel,
      baseBranch,
      // Supervisor mode is admin only (workspace §5); the server refuses it to anyone else too.
      ...(user.admin ? supervision : {}),
    });
    setCreating(false);
    if (!result.ok) {
      setFailure(result.failure);
      return;
    }
    rememberRepository(chosen);
    if (result.repoCreated) void queryClient.invalidateQueries({ queryKey: currentUserKey });
    if (background) {
      setMessage('');
      attachments.clear();
      notify({ message: CREATE_MESSAGES.background, severity: 'success' });
      void queryClient.invalidateQueries({ queryKey: agentListsKey });
      return;
    }
    void navigate(agentPageUrl(chosen, result.created, message, images.length));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    if (event.ctrlKey || event.metaKey) {
      event.preventDefault();
      void submit(true);
    } else if (!event.shiftKey && !smallScreen) {
      // Enter sends, Shift+Enter is a new line; on small screens Enter is always a new line.
      event.preventDefault();
      void submit(false);
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <form
        aria-label="New agent"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit(false);
        }}
      >
        <Stack spacing={2}>
          {closed ? <Alert severity="info">{SUNSET_NO_NEW_AGENTS}</Alert> : null}
          {failure ? (
            <FailureAlert failure={failure} settingsUrl={settingsUrl} onClose={() => setFailure(null)} />
          ) : null}
          {user.repositories.length === 0 ? (
            <Alert severity="info">
              Your installation has no repositories yet.{' '}
              <Link component={RouterLink} to="/gh">
                Create a repository
              </Link>{' '}
              first, or give the App access to one on the code host.
            </Alert>
          ) : null}
          <Stack
            direction={{ xs: 'column', md: 'row' }}
            spacing={2}
            sx={{ alignItems: { md: 'flex-start' } }}
          >
            <RepositoryField
              value={repository}
              options={orderRepositories(user.repositories, lastUsed)}
              error={repositoryProblem}
              disabled={creating}
              onChange={(value) => {
                setRepository(value);
                if (repositoryProblem) setRepositoryProblem(null);
              }}
            />
            {list && model !== undefined && reviewModel !== undefined ? (
              <>
                <ModelSelect
                  kind="core"
                  label="Model"
                  models={list}
                  admin={user.admin}
                  value={model}
                  disabled={creating}
                  onChange={(key) => {
                    if (key === null) return;
                    storePreferredModel(key);
                    setModelPick(key);
                  }}
                />
                <ModelSelect
                  kind="review"
                  label="Review model"
                  models={list}
                  admin={user.admin}
                  value={reviewModel}
                  disabled={creating}
                  onChange={(key) => {
                    storePreferredReviewModel(key);
                    setReviewPick({ key });
                  }}
                />
              </>
            ) : null}
          </Stack>
          {list && model !== undefined ? <ModelSetupHint models={list} model={model} /> : null}
          {user.admin ? (
            <SupervisorFields
              repository={knownRepository ?? null}
              value={supervision}
              disabled={creating}
              onChange={setSupervision}
            />
          ) : null}
          <TextField
            label="Message"
            placeholder="What should the agent do?"
            multiline
            minRows={3}
            maxRows={MESSAGE_MAX_ROWS}
            fullWidth
            value={message}
            disabled={creating}
            onChange={(event) => {
              setMessage(event.target.value.slice(0, MESSAGE_MAX_CHARS));
              setMessageProblem(null);
            }}
            onKeyDown={onKeyDown}
            onPaste={attachments.onPaste}
            helperText={
              messageProblem ??
              imageProblem ??
              'Enter opens the new agent; Ctrl/Cmd+Enter creates it in the background'
            }
            error={messageProblem !== null || imageProblem !== null}
            slotProps={{ htmlInput: { maxLength: MESSAGE_MAX_CHARS } }}
          />
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <ImageAttachments
              images={images}
              disabled={creating}
              onAdd={(files) => {
                setMessageProblem(null);
                void attachments.add(files);
              }}
              onRemove={attachments.remove}
            />
            <BranchPicker
              repository={
                user.repositories.find((repo) => repo.toLowerCase() === repository.trim().toLowerCase()) ??
                null
              }
              value={baseBranch}
              disabled={creating}
              onChange={setBaseBranch}
            />
            {creating ? <CircularProgress size={24} aria-label="Creating agent" /> : null}
            <Button type="submit" variant="contained" disabled={creating || closed}>
              Create
            </Button>
          </Stack>
        </Stack>
      </form>
    </Paper>
  );
}
