import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

export interface Crumb {
  label: string;
  to?: string;
}

const CrumbsContext = createContext<{ crumbs: Crumb[]; setCrumbs: (crumbs: Crumb[]) => void } | null>(null);

export function BreadcrumbsProvider({ children }: { children: ReactNode }) {
  const [crumbs, setCrumbs] = useState<Crumb[]>([]);
  return <CrumbsContext.Provider value={{ crumbs, setCrumbs }}>{children}</CrumbsContext.Provider>;
}

/** A page names where it sits; the header shows it after the logo (platform §2). */
export function useBreadcrumbs(crumbs: Crumb[]): void {
  const context = useContext(CrumbsContext);
  const key = JSON.stringify(crumbs);
  useEffect(() => {
    if (!context) return;
    context.setCrumbs(JSON.parse(key) as Crumb[]);
    return () => context.setCrumbs([]);
    // `key` stands for the crumbs' content, so a new array with the same items does not re-run this.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}

export function HeaderBreadcrumbs() {
  const crumbs = useContext(CrumbsContext)?.crumbs ?? [];
  if (!crumbs.length) return null;
  return (
    <Breadcrumbs aria-label="breadcrumb" sx={{ ml: 2, display: { xs: 'none', sm: 'flex' } }}>
      {crumbs.map((crumb, index) =>
        crumb.to && index < crumbs.length - 1 ? (
          <Link
            key={`${crumb.label}-${index}`}
            component={RouterLink}
            to={crumb.to}
            underline="hover"
            color="inherit"
          >
            {crumb.label}
          </Link>
        ) : (
          <Typography key={`${crumb.label}-${index}`} color="text.primary">
            {crumb.label}
          </Typography>
        ),
      )}
    </Breadcrumbs>
  );
}
