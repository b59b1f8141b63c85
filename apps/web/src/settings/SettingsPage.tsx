import Alert from '@mui/material/Alert';
import Container from '@mui/material/Container';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { SETTINGS_MESSAGES } from '@tandem/shared';
import { useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { NoticeSnackbar, type Notice } from '../agents/manager/Notice';
import { useClientConfig } from '../api/config';
import { useActiveInstallation } from '../auth/active-installation';
import { useCurrentUser } from '../auth/current-user';
import { useBreadcrumbs } from '../layout/breadcrumbs';
import { PageSpinner } from '../layout/PageSpinner';
import { usePageTitle } from '../lib/page-title';
import { BillingSection } from '../billing/BillingSection';
import { AddInstallationSection, RepositoriesSection } from './AdminSections';
import { UserSettingsSection } from './UserSettingsSection';
import { UsersSection } from './UsersSection';
import { useUsersTable } from './use-users-table';

/** Settings (platform §2): the user's toggles; installation admins also administer the installation. */
export default function SettingsPage() {
  usePageTitle('Settings ·');
  useBreadcrumbs([{ label: 'Settings' }]);
  const { user } = useCurrentUser();
  const { id: installationId, installation } = useActiveInstallation();
  const config = useClientConfig();
  const isAdmin = installation?.role === 'admin';
  const table = useUsersTable(installationId, isAdmin);
  const [notice, setNotice] = useState<(Notice & { key: number }) | null>(null);
  const notify = useCallback((next: Notice) => setNotice({ ...next, key: Date.now() }), []);
  useScrollToHash(isAdmin ? table.isSuccess : true);

  if (!user || installationId === null) return <PageSpinner />;

  return (
    <Container maxWidth="md" sx={{ py: 4 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        Settings
      </Typography>
      <Stack spacing={3}>
        <UserSettingsSection notify={notify} />
        {isAdmin ? (
          table.isError ? (
            <Alert severity="error">{SETTINGS_MESSAGES.usersLoad}</Alert>
          ) : !table.data ? (
            <Skeleton variant="rounded" height={240} aria-label="Loading installation settings" />
          ) : (
            <>
              <RepositoriesSection table={table.data} />
              <UsersSection
                installationId={installationId}
                table={table.data}
                currentUserId={user.user_id}
                codeHostUrl={config.data?.code_host_url}
                notify={notify}
              />
              <BillingSection installationId={installationId} notify={notify} />
              <AddInstallationSection installUrl={config.data?.install_url} />
            </>
          )
        ) : null}
      </Stack>
      <NoticeSnackbar notice={notice} onClose={() => setNotice(null)} />
    </Container>
  );
}

/** Links such as /settings#billing land on their section once it is rendered. */
function useScrollToHash(ready: boolean) {
  const { hash } = useLocation();
  useEffect(() => {
    if (!ready || !hash) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    target?.scrollIntoView({ block: 'start' });
  }, [hash, ready]);
}
