import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { useClientConfig } from '../api/config';
import { usePageTitle } from '../lib/page-title';

function list(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Platform §1: data shared with a cloud host and the model providers, never used for training. */
export function PrivacyPage() {
  usePageTitle('Privacy Policy ·');
  const site = useClientConfig().data?.site;
  const host = site?.cloud_host ?? 'our cloud host';
  const providers = site ? list(site.model_providers) : 'our AI model providers';
  return (
    <Container maxWidth="md" sx={{ py: 6, '& h2': { mt: 4 } }}>
      <Typography variant="h3" component="h1" gutterBottom>
        Privacy Policy
      </Typography>
      <Typography color="text.secondary">Last updated February 2025</Typography>

      <Typography variant="h5" component="h2">
        What we collect
      </Typography>
      <Typography sx={{ mb: 2 }}>
        Your GitHub profile (login, name, email, avatar), the installations and repositories you give Tandem
        access to, the conversations you have with agents, the code agents read and write, and usage needed
        for billing. On our public pages we record anonymous visit statistics unless your browser sends Do Not
        Track or Global Privacy Control.
      </Typography>

      <Typography variant="h5" component="h2">
        Who we share it with
      </Typography>
      <Typography sx={{ mb: 2 }}>
        Tandem runs on infrastructure provided by {host}. To do the work you ask for, the relevant code and
        conversation are sent to the AI model providers {providers}. We share nothing else, and we do not sell
        data.
      </Typography>

      <Typography variant="h5" component="h2">
        Training
      </Typography>
      <Typography sx={{ mb: 2 }}>
        Your data is not used to train models — neither by us nor by the model providers, whose business terms
        exclude training on API traffic.
      </Typography>

      <Typography variant="h5" component="h2">
        Secrets
      </Typography>
      <Typography sx={{ mb: 2 }}>
        Repository secrets are encrypted at rest, are never shown again after you save them, and are removed
        from everything displayed to you or sent to a model.
      </Typography>

      <Typography variant="h5" component="h2">
        Your choices
      </Typography>
      <Typography sx={{ mb: 2 }}>
        Uninstall the GitHub app to stop all access. To have your data deleted, contact{' '}
        {site ? <a href={`mailto:${site.support_email}`}>{site.support_email}</a> : 'support'}.
      </Typography>
    </Container>
  );
}

export default PrivacyPage;
