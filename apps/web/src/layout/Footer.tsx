import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useClientConfig } from '../api/config';

const PAGES = [
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/blog', label: 'Blog' },
  { to: '/team', label: 'Team' },
];

export function Footer() {
  const site = useClientConfig().data?.site;
  return (
    <Box
      component="footer"
      sx={{
        py: 3,
        px: 2,
        borderTop: 1,
        borderColor: 'divider',
        display: 'flex',
        gap: 3,
        flexWrap: 'wrap',
        alignItems: 'center',
      }}
    >
      <Typography variant="body2" color="text.secondary">
        © Tandem
      </Typography>
      {PAGES.map((page) => (
        <Link key={page.to} component={RouterLink} to={page.to} color="text.secondary" underline="hover">
          {page.label}
        </Link>
      ))}
      {site ? (
        <Link href={`mailto:${site.support_email}`} color="text.secondary" underline="hover">
          Contact
        </Link>
      ) : null}
      {site?.social_links.map((social) => (
        <Link
          key={social.url}
          href={social.url}
          target="_blank"
          rel="noopener"
          color="text.secondary"
          underline="hover"
        >
          {social.label}
        </Link>
      ))}
    </Box>
  );
}
