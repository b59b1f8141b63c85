import { createContext, useContext } from 'react';

/**
 * Extra headers for the workspace's reads (metadata, feed, diff, files, logs). Empty for a
 * signed-in viewer (the session cookie does); on /party an anonymous visitor's workspace reads the
 * party agent with the read-only party token (GET /api/temp-auth-token?party=true) as a Bearer.
 */
export const ReaderHeadersContext = createContext<Record<string, string> | undefined>(undefined);

export function useReaderHeaders(): Record<string, string> | undefined {
  return useContext(ReaderHeadersContext);
}
