import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { BranchCommit } from '@tandem/shared';

const SHOWN = 5;

/** The commits of the shown range, newest first: what the diff below is made of. */
export function RangeCommits({ commits, live }: { commits: BranchCommit[]; live: boolean }) {
  if (!commits.length && !live) return null;
  const newest = [...commits].reverse();
  const hidden = newest.length - SHOWN;
  return (
    <Box component="ul" aria-label="Commits in range" sx={{ listStyle: 'none', m: 0, px: 1.5, py: 0.5 }}>
      {live && (
        <Typography component="li" variant="caption" sx={{ display: 'block', fontStyle: 'italic' }}>
          Uncommitted changes
        </Typography>
      )}
      {newest.slice(0, SHOWN).map((commit) => (
        <Typography component="li" variant="caption" key={commit.sha} noWrap sx={{ display: 'block' }}>
          <Box component="span" sx={{ fontFamily: 'monospace', color: 'text.secondary', mr: 1 }}>
            {commit.sha.slice(0, 7)}
          </Box>
          {commit.title}
        </Typography>
      ))}
      {hidden > 0 && (
        <Typography component="li" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
          and {hidden} earlier {hidden === 1 ? 'commit' : 'commits'}
        </Typography>
      )}
    </Box>
  );
}
