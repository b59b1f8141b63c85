import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { isActiveAgent, type AgentMetadata } from '@tandem/shared';
import { Link as RouterLink } from 'react-router';
import { agentPath, isWorking } from './agent-display';
import { WorkingGlyph } from './WorkingGlyph';

/** Whether to show ▶: an agent working, or a supervisor with a working sub-agent (workspace §4). */
export function isActive(agent: Pick<AgentMetadata, 'status' | 'sub_agents'>): boolean {
  return isActiveAgent(agent);
}

/**
 * A supervisor's sub-agents (each links to its page, with ▶/⏸ and its status), or, for a
 * sub-agent, a link to its supervisor: the hierarchy in the agents list and on an agent's page.
 */
export function AgentHierarchy({ agent, dense }: { agent: AgentMetadata; dense?: boolean }) {
  const variant = dense ? 'caption' : 'body2';
  if (agent.supervisor) {
    return (
      <Typography variant={variant} color="text.secondary" component="p" sx={{ m: 0 }}>
        Sub-agent of{' '}
        <Link component={RouterLink} to={agentPath(agent.supervisor)} underline="hover">
          {agent.supervisor.title}
        </Link>
      </Typography>
    );
  }
  if (agent.agent_type !== 'supervisor' || !agent.sub_agents.length) return null;
  return (
    <Box
      component="ul"
      aria-label={`Sub-agents of ${agent.title}`}
      sx={{ m: 0, pl: dense ? 2 : 2.5, listStyle: 'disc' }}
    >
      {agent.sub_agents.map((sub) => (
        <Typography component="li" variant={variant} key={sub.id}>
          {/* A box, not a wrapped inline run: its whole area is the link's (pointer and touch). */}
          <Link component={RouterLink} to={agentPath(sub)} underline="hover" sx={{ display: 'inline-block' }}>
            <WorkingGlyph working={isWorking(sub.status)} />
            {sub.title}
          </Link>
          <Box component="span" sx={{ color: 'text.secondary' }}>
            {' '}
            · {sub.repo_name ?? '—'} · {sub.status}
            {pullNumbers(sub.sources)}
          </Box>
        </Typography>
      ))}
    </Box>
  );
}

/** ' · #12' for each pull request among a sub-agent's branch sources. */
function pullNumbers(sources: AgentMetadata['sources']): string {
  const numbers = Object.values(sources)
    .flat()
    .filter((s) => s.type === 'branch' && s.number !== null)
    .map((s) => `#${s.number}`);
  return numbers.length ? ` · pull request ${numbers.join(', ')}` : '';
}
