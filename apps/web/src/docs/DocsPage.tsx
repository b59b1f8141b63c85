import MenuIcon from '@mui/icons-material/Menu';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { PageSpinner } from '../layout/PageSpinner';
import { usePageTitle } from '../lib/page-title';
import { NotFoundPage } from '../pages/NotFoundPage';
import { renderMarkdown } from './markdown';
import { DOC_PAGES, findDocPage, type DocPage } from './registry';

const SIDEBAR_WIDTH = 200;

function Sidebar({ current, onNavigate }: { current: DocPage; onNavigate?: () => void }) {
  const sections = [...new Set(DOC_PAGES.map((p) => p.section))];
  return (
    <List dense component="nav" aria-label="Documentation" sx={{ width: SIDEBAR_WIDTH }}>
      {sections.map((section) => [
        <ListSubheader key={section} sx={{ bgcolor: 'transparent', lineHeight: '32px' }}>
          {section}
        </ListSubheader>,
        ...DOC_PAGES.filter((p) => p.section === section).map((p) => (
          <ListItemButton
            key={p.path}
            component={RouterLink}
            to={p.path}
            selected={p.path === current.path}
            onClick={onNavigate}
          >
            <ListItemText primary={p.title} />
          </ListItemButton>
        )),
      ])}
    </List>
  );
}

/** The docs (workspace §2): Markdown pages, a 200 px sidebar, a drawer on small screens. */
export function DocsPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const current = findDocPage(location.pathname);
  const small = useMediaQuery(useTheme().breakpoints.down('md'));
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [html, setHtml] = useState<{ path: string; html: string } | null>(null);
  const article = useRef<HTMLDivElement>(null);
  usePageTitle(current ? `${current.title} ·` : undefined);

  useEffect(() => {
    if (!current) return;
    let cancelled = false;
    void current.load().then((source) => {
      if (!cancelled) setHtml({ path: current.path, html: renderMarkdown(source) });
    });
    return () => {
      cancelled = true;
    };
  }, [current]);

  const ready = html !== null && html.path === current?.path;
  useEffect(() => {
    if (!ready) return;
    const id = decodeURIComponent(location.hash.replace(/^#/, ''));
    const target = id ? document.getElementById(id) : null;
    if (target) target.scrollIntoView({ behavior: 'smooth', block: 'start' });
    else window.scrollTo({ top: 0 });
  }, [ready, location.hash]);

  if (!current) return <NotFoundPage />;

  // Links inside the Markdown stay in the app (and #anchors scroll smoothly) instead of reloading.
  const onArticleClick = (event: MouseEvent<HTMLDivElement>) => {
    const anchor = (event.target as HTMLElement).closest('a');
    const href = anchor?.getAttribute('href');
    if (!anchor || !href || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    if (href.startsWith('/') || href.startsWith('#')) {
      event.preventDefault();
      void navigate(href.startsWith('#') ? { pathname: location.pathname, hash: href } : href);
    }
  };

  return (
    <Box sx={{ display: 'flex', minHeight: '100%' }}>
      {small ? (
        <Drawer open={drawerOpen} onClose={() => setDrawerOpen(false)}>
          <Sidebar current={current} onNavigate={() => setDrawerOpen(false)} />
        </Drawer>
      ) : (
        <Box sx={{ width: SIDEBAR_WIDTH, flexShrink: 0, borderRight: 1, borderColor: 'divider', py: 2 }}>
          <Sidebar current={current} />
        </Box>
      )}
      <Box sx={{ flexGrow: 1, minWidth: 0, px: { xs: 2, md: 5 }, py: 3, maxWidth: 900 }}>
        {small ? (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }}>
            <IconButton aria-label="Open docs menu" onClick={() => setDrawerOpen(true)} edge="start">
              <MenuIcon />
            </IconButton>
            <Breadcrumbs aria-label="breadcrumb">
              <Link component={RouterLink} to="/docs">
                Docs
              </Link>
              <Typography color="text.primary">{current.title}</Typography>
            </Breadcrumbs>
          </Box>
        ) : null}
        {ready ? (
          <Box
            ref={article}
            component="article"
            className="docs-article"
            onClick={onArticleClick}
            sx={{
              '& h1': { typography: 'h4', mt: 0 },
              '& h2': { typography: 'h5', mt: 4 },
              '& pre': { p: 2, bgcolor: 'action.hover', borderRadius: 1, overflow: 'auto' },
              '& code': { fontFamily: 'ui-monospace, monospace', fontSize: '0.9em' },
              '& table': { borderCollapse: 'collapse' },
              '& th, & td': { border: 1, borderColor: 'divider', px: 1, py: 0.5, textAlign: 'left' },
              '& blockquote': { borderLeft: 4, borderColor: 'divider', m: 0, pl: 2, color: 'text.secondary' },
              '& a': { color: 'primary.main' },
            }}
            dangerouslySetInnerHTML={{ __html: html.html }}
          />
        ) : (
          <PageSpinner />
        )}
      </Box>
    </Box>
  );
}

export default DocsPage;
