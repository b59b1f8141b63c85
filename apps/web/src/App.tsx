import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppLayout } from './layout/AppLayout';
import { LandingPage } from './pages/LandingPage';
import { RepoRedirect } from './repos/RepoRedirect';
import { RequireUser } from './routing/RequireUser';
import { ThemeModeProvider } from './theme/ThemeModeProvider';

// Everything but the landing page is split out, so the first page a visitor sees stays small.
const LoginPage = lazy(() => import('./pages/LoginPage'));
const NotFoundPage = lazy(() => import('./pages/NotFoundPage'));
const InstallationsPage = lazy(() => import('./pages/InstallationsPage'));
const AgentsPage = lazy(() => import('./pages/AgentsPage'));
const PopupCompletePage = lazy(() => import('./pages/PopupCompletePage'));
const DocsPage = lazy(() => import('./docs/DocsPage'));
const TeamPage = lazy(() => import('./site/TeamPage'));
const PrivacyPage = lazy(() => import('./site/PrivacyPage'));
const StyleguidePage = lazy(() => import('./site/StyleguidePage'));
const CliAuthSuccessPage = lazy(() => import('./site/CliAuthSuccessPage'));
const BlogListPage = lazy(() => import('./blog/BlogListPage'));
const BlogPostPage = lazy(() => import('./blog/BlogPostPage'));
const AdminBlogPage = lazy(() => import('./blog/AdminBlogPage'));
const AdminInstallationsPage = lazy(() => import('./admin/AdminInstallationsPage'));
const TaskMonitorPage = lazy(() => import('./admin/TaskMonitorPage'));
const AdminAgentsPage = lazy(() => import('./admin/AdminAgentsPage'));
const AdminDashboardPage = lazy(() => import('./admin/DashboardPage'));
const AdminUsersPage = lazy(() => import('./admin/AdminUsersPage'));
const AdminRepositoriesPage = lazy(() => import('./admin/AdminRepositoriesPage'));
const RepositoriesPage = lazy(() => import('./repos/RepositoriesPage'));
const AgentWorkspacePage = lazy(() => import('./agents/workspace/AgentWorkspacePage'));
const RepositoryPage = lazy(() => import('./repos/RepositoryPage'));
const RepositoryAgentsTab = lazy(() => import('./repos/RepositoryAgentsTab'));
const RepositorySettingsTab = lazy(() => import('./repos/settings/RepositorySettingsTab'));
const RepositoryLogsTab = lazy(() => import('./repos/logs/RepositoryLogsTab'));
const RepositoryLogTab = lazy(() => import('./repos/logs/RepositoryLogTab'));
const LogRedirectPage = lazy(() => import('./repos/logs/LogRedirectPage'));
const SettingsPage = lazy(() => import('./settings/SettingsPage'));
const TransactionsPage = lazy(() => import('./billing/TransactionsPage'));
const PartyPage = lazy(() => import('./party/PartyPage'));

/** Login-protected routes (platform §2) redirect to / once we know nobody is signed in. */
const signedIn = (page: ReactNode) => <RequireUser>{page}</RequireUser>;
/** The admin area (platform §4): product admins only; the page's chunk loads for them alone. */
const adminOnly = (page: ReactNode) => <RequireUser admin>{page}</RequireUser>;

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: true } },
});

const router = createBrowserRouter([
  {
    element: <AppLayout />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/landing', element: <LandingPage /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/login/popup-complete', element: <PopupCompletePage /> },
      {
        path: '/installations',
        element: signedIn(<InstallationsPage />),
      },
      {
        path: '/gh',
        element: signedIn(<RepositoriesPage />),
      },
      {
        path: '/agents',
        element: signedIn(<AgentsPage />),
      },
      { path: '/settings', element: signedIn(<SettingsPage />) },
      { path: '/transactions', element: signedIn(<TransactionsPage />) },
      { path: '/transactions/:installationId', element: signedIn(<TransactionsPage />) },
      // The workspace's own route; the short forms are normalised to it once the agent is known.
      // Not behind RequireUser: a visitor who may not see the agent gets the 404 page (with login).
      { path: '/gh/:owner/:repo/agent/:agentId', element: <AgentWorkspacePage /> },
      { path: '/agent/:agentId', element: <AgentWorkspacePage /> },
      { path: '/agents/:agentId', element: <AgentWorkspacePage /> },
      {
        // The repository page and its tabs (platform §2); any other sub-path is not-found below.
        path: '/gh/:owner/:repo',
        element: signedIn(<RepositoryPage />),
        children: [
          { index: true, element: <RepositoryAgentsTab /> },
          { path: 'agents', element: <RepositoryAgentsTab /> },
          { path: 'settings', element: <RepositorySettingsTab /> },
          { path: 'logs', element: <RepositoryLogsTab /> },
          { path: 'log/:logId', element: <RepositoryLogTab /> },
        ],
      },
      { path: '/gh/:owner/:repo/*', element: <NotFoundPage /> },
      { path: '/repo/:owner/:repo', element: signedIn(<RepoRedirect tab="settings" />) },
      { path: '/repo/:owner/:repo/logs', element: signedIn(<RepoRedirect tab="logs" />) },
      { path: '/log/:logId', element: signedIn(<LogRedirectPage />) },
      // Public (platform §6): anonymous visitors chat with the party agent too.
      { path: '/party', element: <PartyPage /> },
      { path: '/team', element: <TeamPage /> },
      { path: '/privacy', element: <PrivacyPage /> },
      { path: '/styleguide', element: adminOnly(<StyleguidePage />) },
      { path: '/cli-auth-success', element: <CliAuthSuccessPage /> },
      { path: '/blog', element: <BlogListPage /> },
      { path: '/blog/:postId', element: <BlogPostPage /> },
      { path: '/admin/installations', element: adminOnly(<AdminInstallationsPage />) },
      { path: '/admin/task_monitor', element: adminOnly(<TaskMonitorPage />) },
      { path: '/admin/agents', element: adminOnly(<AdminAgentsPage />) },
      { path: '/admin/dashboard', element: adminOnly(<AdminDashboardPage />) },
      { path: '/admin/users', element: adminOnly(<AdminUsersPage />) },
      { path: '/admin/repositories', element: adminOnly(<AdminRepositoriesPage />) },
      { path: '/admin/blog', element: adminOnly(<AdminBlogPage />) },
      { path: '/docs/*', element: <DocsPage /> },
      { path: '/docs', element: <DocsPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeModeProvider>
        <RouterProvider router={router} />
      </ThemeModeProvider>
    </QueryClientProvider>
  );
}
