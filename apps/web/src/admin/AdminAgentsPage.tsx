import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { useCallback, useState } from 'react';
import { AgentsTable } from '../agents/manager/AgentsTable';
import { NoticeSnackbar, type Notice } from '../agents/manager/Notice';
import { usePageTitle } from '../lib/page-title';

/**
 * /admin/agents (platform §2, §7 Admin): the agents table across every installation, with the
 * agents manager's search syntax, order and paging (the same table, in its admin variant).
 */
export default function AdminAgentsPage() {
  usePageTitle('Agents · Admin ·');
  const [notice, setNotice] = useState<(Notice & { key: number }) | null>(null);
  const notify = useCallback((next: Notice) => setNotice({ ...next, key: Date.now() }), []);
  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        Agents
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Every installation’s agents. Search with words of a title, creator:&#123;username&#125;, is:archived
        or is:unarchived.
      </Typography>
      <AgentsTable admin notify={notify} />
      <NoticeSnackbar notice={notice} onClose={() => setNotice(null)} />
    </Container>
  );
}
