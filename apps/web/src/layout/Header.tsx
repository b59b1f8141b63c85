import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { lazy, Suspense } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { useClientConfig } from '../api/config';
import { useCurrentUser } from '../auth/current-user';
import { LoginButton } from '../auth/LoginButton';
import { useThemeMode } from '../theme/ThemeModeProvider';
import { HeaderBreadcrumbs } from './breadcrumbs';
import { isWorkspacePath } from './site-sections';

// Only signed-in users need these (and their menus' MUI parts): not on a visitor's first page.
const SignedInTools = lazy(() => import('./SignedInTools'));

export function Header() {
  const { user, loading } = useCurrentUser();
  const { mode, toggle } = useThemeMode();
  const location = useLocation();
  const config = useClientConfig();
  const small = useMediaQuery(useTheme().breakpoints.down('sm'));
  const showSiteLinks = !small && !isWorkspacePath(location.pathname);
  const discord = config.data?.site.discord_url;

  return (
    <AppBar position="static" color="default" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Toolbar sx={{ minHeight: 64, gap: 1 }}>
        <Typography
          component={RouterLink}
          to="/agents"
          variant="h6"
          aria-label="Tandem home"
          sx={{ color: 'inherit', textDecoration: 'none', fontWeight: 700 }}
        >
          Tandem
        </Typography>
        <HeaderBreadcrumbs />
        <Box sx={{ flexGrow: 1 }} />
        {showSiteLinks ? (
          <Box component="nav" aria-label="Site" sx={{ display: 'flex', gap: 1 }}>
            <Button component={RouterLink} to="/docs" color="inherit">
              Docs
            </Button>
            {discord ? (
              <Button href={discord} target="_blank" rel="noopener" color="inherit">
                Discord
              </Button>
            ) : null}
          </Box>
        ) : null}
        <Tooltip title="Toggle theme (Alt+T)">
          <IconButton aria-label="Toggle theme" onClick={toggle}>
            {mode === 'dark' ? <LightModeIcon /> : <DarkModeIcon />}
          </IconButton>
        </Tooltip>
        {loading ? null : user ? (
          <Suspense fallback={null}>
            <SignedInTools user={user} />
          </Suspense>
        ) : (
          <LoginButton />
        )}
      </Toolbar>
    </AppBar>
  );
}
