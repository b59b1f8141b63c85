import { useCallback, useState } from 'react';
import { readStored, writeStored } from '../../../lib/storage';

/** Workspace spec: "Editor font size 12". */
export const EDITOR_FONT_SIZE = 12;
/** Line height Monaco uses at font size 12, for sizing a file's editor before it measures itself. */
export const EDITOR_LINE_HEIGHT = 19;
/** A file's editor is at most this tall, so many files stack in one scrolling window. */
export const EDITOR_MAX_HEIGHT = 600;

const SIDE_BY_SIDE_KEY = 'diffEditor:sideBySide';

/** Side by side unless the user chose inline (saved in local storage for every agent). */
export function readSideBySide(): boolean {
  return readStored(SIDE_BY_SIDE_KEY) !== '0';
}

export function useSideBySide(): [boolean, (sideBySide: boolean) => void] {
  const [sideBySide, setState] = useState(readSideBySide);
  const set = useCallback((value: boolean) => {
    writeStored(SIDE_BY_SIDE_KEY, value ? '1' : '0');
    setState(value);
  }, []);
  return [sideBySide, set];
}

/** The height to give a file's editor before Monaco reports its real content height. */
export function estimatedHeight(original: string, modified: string): number {
  const lines = Math.max(original.split('\n').length, modified.split('\n').length);
  return Math.min(Math.max(lines, 3) * EDITOR_LINE_HEIGHT + 8, EDITOR_MAX_HEIGHT);
}
