import type { DiffFile } from '@tandem/shared';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { contentHash, viewedText } from './content-hash';
import { markedFilesStore, type MarkedFile } from './marked-files';

interface Hashes {
  files: DiffFile[];
  byPath: Map<string, string>;
}

/**
 * Viewed marks of the shown files. A mark whose content hash no longer matches the file is
 * removed (the file changed since it was viewed). `ready` turns true once the marks and hashes are
 * known, so viewed files can start collapsed instead of flashing open.
 */
export function useViewedFiles(scope: string, files: DiffFile[]) {
  const store = useMemo(() => markedFilesStore(scope), [scope]);
  const [marks, setMarks] = useState<Map<string, MarkedFile> | null>(null);
  const [hashes, setHashes] = useState<Hashes | null>(null);

  useEffect(() => {
    let cancelled = false;
    setMarks(null);
    void store.list().then((list) => {
      if (!cancelled) setMarks(new Map(list.map((mark) => [mark.filepath, mark])));
    });
    return () => {
      cancelled = true;
    };
  }, [store]);

  useEffect(() => {
    let cancelled = false;
    void Promise.all(files.map(async (f) => [f.filename, await contentHash(viewedText(f))] as const)).then(
      (pairs) => !cancelled && setHashes({ files, byPath: new Map(pairs) }),
    );
    return () => {
      cancelled = true;
    };
  }, [files]);

  // While new contents are hashed the previous hashes stand in, so the list does not blink out
  // on every conversation update; only hashes of the current files may drop marks.
  const current = hashes?.byPath ?? null;
  const fresh = hashes?.files === files;

  useEffect(() => {
    if (!marks || !current || !fresh) return;
    const stale = [...current].filter(([path, hash]) => {
      const mark = marks.get(path);
      return mark !== undefined && mark.contentHash !== hash;
    });
    if (!stale.length) return;
    for (const [path] of stale) void store.unmark(path);
    setMarks((m) => {
      const next = new Map(m);
      for (const [path] of stale) next.delete(path);
      return next;
    });
  }, [marks, current, fresh, store]);

  const hashOf = useCallback((path: string) => current?.get(path), [current]);
  const isViewed = useCallback(
    (path: string) => {
      const hash = current?.get(path);
      return hash !== undefined && marks?.get(path)?.contentHash === hash;
    },
    [current, marks],
  );
  const setViewed = useCallback(
    (path: string, viewed: boolean) => {
      const hash = current?.get(path);
      if (hash === undefined) return;
      const mark = { filepath: path, contentHash: hash, markedAt: Date.now() };
      void (viewed ? store.mark(mark) : store.unmark(path));
      setMarks((m) => {
        const next = new Map(m);
        if (viewed) next.set(path, mark);
        else next.delete(path);
        return next;
      });
    },
    [current, store],
  );

  return { ready: marks !== null && current !== null, hashOf, isViewed, setViewed };
}
