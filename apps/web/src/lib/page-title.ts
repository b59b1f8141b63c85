import { PRODUCT_NAME } from '@tandem/shared';
import { useEffect } from 'react';

/** "Tandem", or with a prefix such as an unread count: "(3) Tandem". */
export function pageTitle(prefix?: string): string {
  return prefix ? `${prefix} ${PRODUCT_NAME}` : PRODUCT_NAME;
}

export function usePageTitle(prefix?: string): void {
  useEffect(() => {
    document.title = pageTitle(prefix);
  }, [prefix]);
}
