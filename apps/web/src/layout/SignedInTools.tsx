import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { User } from '@tandem/shared';
import { CreditsBalance } from '../billing/CreditsBalance';
import { AgentStatusMenus } from './AgentStatusMenus';
import { UserMenu } from './UserMenu';

/**
 * The header's tools for a signed-in user: agent status menus, credits, name and the user menu.
 * A chunk of its own (menus, lists, popovers), so a visitor's first page does not load it.
 */
export default function SignedInTools({ user }: { user: User }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <AgentStatusMenus />
      <CreditsBalance />
      <Typography variant="body2" sx={{ display: { xs: 'none', sm: 'block' } }}>
        {user.username}
      </Typography>
      <UserMenu user={user} />
    </Box>
  );
}
