import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router';

const LINKS = [
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/blog', label: 'Blog' },
  { to: '/team', label: 'Team' },
];

export function Footer() {
  return (
    <Box
      component="footer"
      sx={{ py: 3, px: 2, borderTop: 1, borderColor: 'divider', display: 'flex', gap: 3 }}
    >
      {LINKS.map((link) => (
        <Link key={link.to} component={RouterLink} to={link.to} color="text.secondary" underline="hover">
          {link.label}
        </Link>
      ))}
    </Box>
  );
}
