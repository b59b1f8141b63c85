import { PRODUCT_NAME } from '@tandem/shared';
import { useEffect } from 'react';

/** "Tandem", or with a prefix such as an unread count: "(3) Tandem". */
export function pageTitle(prefix?: string): string {
  return prefix ? `${prefix} ${PRODUCT_NAME}` : PRODUCT_NAME;
}

// The tab title has two independent parts: the page's name and the unread count before it.
const parts: { page?: string | undefined; count?: string | undefined } = {};

function render() {
  document.title = pageTitle([parts.count, parts.page].filter(Boolean).join(' ') || undefined);
}

/** The page's own part of the tab title, e.g. 'Pricing ·'. */
export function usePageTitle(prefix?: string): void {
  useEffect(() => {
    parts.page = prefix;
    render();
    // Leaving the page drops its name, so the next page never shows a stale title.
    return () => {
      parts.page = undefined;
      render();
    };
  }, [prefix]);
}

/** The unread count before everything else, e.g. '(3)'. */
export function useTitleCount(count?: string): void {
  useEffect(() => {
    parts.count = count;
    render();
    return () => {
      parts.count = undefined;
      render();
    };
  }, [count]);
}
