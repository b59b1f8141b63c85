import { createContext, useContext } from 'react';
import type { ImageAttachment } from '../manager/image-files';
import type { WorkspaceTab } from './tabs';

/** Lets feed rows open a workspace tab (a shell's window, a file, a log, the summary, a review). */
export const OpenTabContext = createContext<((tab: WorkspaceTab) => void) | null>(null);

export const useOpenTab = () => useContext(OpenTabContext);

/** Where the feed's files live: the agent's repository and the branch it works on. */
export const FeedRepoContext = createContext<{ repoName: string; branch: string | null } | null>(null);

export const useFeedRepo = () => useContext(FeedRepoContext);

/** Adds an image to the unsent message (a preview's screenshot); null when the viewer cannot message. */
export const AttachImageContext = createContext<((image: ImageAttachment) => void) | null>(null);

export const useAttachImage = () => useContext(AttachImageContext);
