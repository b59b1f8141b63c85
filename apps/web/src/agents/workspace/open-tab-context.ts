import { createContext, useContext } from 'react';
import type { WorkspaceTab } from './tabs';

/** Lets feed rows open a workspace tab (a shell's window, the summary, an auto-review). */
export const OpenTabContext = createContext<((tab: WorkspaceTab) => void) | null>(null);

export const useOpenTab = () => useContext(OpenTabContext);
