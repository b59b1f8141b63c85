import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { MonacoDiffProps } from './monaco-props';

type LazyDiff = LazyExoticComponent<ComponentType<MonacoDiffProps>>;
const byAttempt = new Map<number, LazyDiff>();

/**
 * The Monaco diff editor, loaded on first use (the landing page and the chat never download
 * it). One lazy component per error-boundary attempt: every file section shares attempt 0, and a
 * retry gets a fresh one, since React keeps a failed lazy import failed.
 */
export function lazyMonacoDiff(attempt: number): LazyDiff {
  let component = byAttempt.get(attempt);
  if (!component) {
    component = lazy(() => import('./MonacoDiff'));
    byAttempt.set(attempt, component);
  }
  return component;
}
