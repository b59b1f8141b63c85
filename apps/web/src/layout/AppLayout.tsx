import Box from '@mui/material/Box';
import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { SignedInRedirects } from '../routing/SignedInRedirects';
import { useTracking } from '../tracking/useTracking';
import { BreadcrumbsProvider } from './breadcrumbs';
import { Footer } from './Footer';
import { Header } from './Header';
import { PageSpinner } from './PageSpinner';
import { SunsetBanner } from './SunsetBanner';
import { isWorkspacePath } from './site-sections';

export function AppLayout() {
  useTracking();
  const { pathname } = useLocation();
  return (
    <BreadcrumbsProvider>
      <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
        <Header />
        <SunsetBanner />
        <Box component="main" sx={{ flexGrow: 1 }}>
          <SignedInRedirects>
            <Suspense fallback={<PageSpinner />}>
              <Outlet />
            </Suspense>
          </SignedInRedirects>
        </Box>
        {isWorkspacePath(pathname) ? null : <Footer />}
      </Box>
    </BreadcrumbsProvider>
  );
}
