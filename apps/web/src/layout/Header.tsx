import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useCurrentUser, useLogout } from '../auth/current-user';
import { LoginButton } from '../auth/LoginButton';
import { useThemeMode } from '../theme/ThemeModeProvider';

export function Header() {
  const { user, loading } = useCurrentUser();
  const logout = useLogout();
  const { mode, toggle } = useThemeMode();

  return (
    <AppBar position="static" color="default" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Toolbar sx={{ minHeight: 64, gap: 1 }}>
        <Typography
          component={RouterLink}
          to="/agents"
          variant="h6"
          sx={{ color: 'inherit', textDecoration: 'none', fontWeight: 700, flexGrow: 1 }}
        >
          Tandem
        </Typography>
        <Tooltip title="Toggle theme (Alt+T)">
          <IconButton aria-label="Toggle theme" onClick={toggle}>
            {mode === 'dark' ? <LightModeIcon /> : <DarkModeIcon />}
          </IconButton>
        </Tooltip>
        {loading ? null : user ? (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Typography variant="body2">{user.username}</Typography>
            <Button onClick={() => void logout()}>Logout</Button>
          </Box>
        ) : (
          <LoginButton />
        )}
      </Toolbar>
    </AppBar>
  );
}
