import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { SCRIPTS_MESSAGES } from '@tandem/shared';
import { useNavigate } from 'react-router';
import { repoPagePath } from '../repo-path';
import { useGenerateScripts } from '../use-generate-scripts';
import { useRepositoryScripts } from '../use-repository-scripts';
import { SettingsSection } from './SettingsSection';

/**
 * Product admins: the repository's `.tandem/` scripts on its default branch, the open pull requests
 * of script-writing agents, and Generate / Regenerate Scripts (platform §4), which starts an agent
 * and opens it.
 */
export function ScriptsSection(props: { fullName: string }) {
  const navigate = useNavigate();
  const scripts = useRepositoryScripts(props.fullName, true);
  const generate = useGenerateScripts(props.fullName);
  const data = scripts.data;
  const paths = Object.keys(data?.scripts ?? {}).sort();
  const generating = (data?.agent_ids.length ?? 0) > 0;
  const hasAny = paths.length > 0 || (data?.open_pr_links.length ?? 0) > 0;

  return (
    <SettingsSection id="scripts" title="Scripts">
      {scripts.isError ? <Alert severity="error">{SCRIPTS_MESSAGES.fetch}</Alert> : null}
      {generate.isError ? <Alert severity="error">{SCRIPTS_MESSAGES.generate}</Alert> : null}
      {scripts.isPending ? <CircularProgress size={24} aria-label="Loading scripts" /> : null}
      {data ? (
        <>
          {paths.length ? (
            <Stack spacing={1}>
              {paths.map((path) => (
                <details key={path}>
                  <summary>
                    <code>{path}</code>
                  </summary>
                  <Typography
                    component="pre"
                    sx={{
                      fontFamily: 'monospace',
                      fontSize: 12,
                      bgcolor: 'action.hover',
                      p: 1,
                      overflow: 'auto',
                    }}
                  >
                    {data.scripts[path]}
                  </Typography>
                </details>
              ))}
            </Stack>
          ) : (
            <Typography color="text.secondary">This repository has no scripts yet.</Typography>
          )}
          {data.open_pr_links.length ? (
            <List dense aria-label="Open script pull requests">
              {data.open_pr_links.map((pr) => (
                <ListItem key={pr.number} disableGutters>
                  <Link href={pr.link} target="_blank" rel="noopener noreferrer">
                    Pull request #{pr.number}
                  </Link>
                </ListItem>
              ))}
            </List>
          ) : null}
          {generating ? (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
              <CircularProgress size={16} aria-hidden />
              <Typography>{SCRIPTS_MESSAGES.generating}</Typography>
            </Stack>
          ) : null}
        </>
      ) : null}
      <div>
        <Button
          variant="outlined"
          disabled={generate.isPending || !data}
          onClick={() =>
            generate.mutate(undefined, {
              onSuccess: ({ agent_id }) => void navigate(`${repoPagePath(props.fullName)}/agent/${agent_id}`),
            })
          }
        >
          {hasAny ? 'Regenerate Scripts' : 'Generate Scripts'}
        </Button>
      </div>
    </SettingsSection>
  );
}
