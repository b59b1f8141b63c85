/**
 * Runs `fn` just after the next frame is painted (rAF runs just before it; the timeout just after):
 * on a fast connection a page's scripts are ready before its first frame, and their work would
 * hold that paint. A page in the background paints no frames, so there it runs at once.
 */
export function afterFirstFrame(fn: () => void): void {
  if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible')
    requestAnimationFrame(() => setTimeout(fn, 0));
  else fn();
}
