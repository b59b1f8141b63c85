import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { REPOSITORY_SETTINGS_MESSAGES, type UpdateRepositorySettings } from '@tandem/shared';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { useModelList } from '../../agents/manager/agents-api';
import { NoticeSnackbar, type Notice } from '../../agents/manager/Notice';
import { useCurrentUser } from '../../auth/current-user';
import { PageSpinner } from '../../layout/PageSpinner';
import { usePageTitle } from '../../lib/page-title';
import { useRepositoryContext } from '../repository-context';
import { useRepositorySettings } from '../use-repository-settings';
import { useUpdateRepositorySettings } from '../use-update-repository-settings';
import { AutomationsSection } from './AutomationsSection';
import { BotBehaviorSection } from './BotBehaviorSection';
import { ScriptsSection } from './ScriptsSection';
import { SecretsSection } from './SecretsSection';

const FETCH_FAILED = 'There was an error fetching the repository settings. Please reload or try again later.';

/** `/gh/{owner}/{repo}/settings` (platform §2, §4, §5): Bot Behavior, Automations, Secrets, and Scripts for product admins. */
export function RepositorySettingsTab() {
  const { fullName } = useRepositoryContext();
  usePageTitle(`${fullName} · Settings ·`);
  const settings = useRepositorySettings(fullName);
  const { user } = useCurrentUser();
  const models = useModelList();
  const update = useUpdateRepositorySettings(fullName);
  const [notice, setNotice] = useState<(Notice & { key: number }) | null>(null);
  const { hash } = useLocation();
  const ready = settings.data !== undefined && models.data !== undefined;

  // `/gh/{repo}/settings#behavior` (the over-budget notice's link) lands on its section once drawn.
  useEffect(() => {
    if (!ready || !hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [ready, hash]);

  const showError = (message: string) => setNotice({ message, severity: 'error', key: Date.now() });
  const change = (field: UpdateRepositorySettings) =>
    update.mutate(field, { onError: () => showError(REPOSITORY_SETTINGS_MESSAGES.updateFailed) });

  if (settings.isError || models.isError) return <Alert severity="error">{FETCH_FAILED}</Alert>;
  if (!ready) return <PageSpinner />;
  return (
    <Stack spacing={3}>
      <BotBehaviorSection settings={settings.data} models={models.data.models} onChange={change} />
      <AutomationsSection settings={settings.data} onChange={change} />
      <SecretsSection fullName={fullName} onError={showError} />
      {user?.admin ? <ScriptsSection fullName={fullName} /> : null}
      <NoticeSnackbar notice={notice} onClose={() => setNotice(null)} />
    </Stack>
  );
}

export default RepositorySettingsTab;
