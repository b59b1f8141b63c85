import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

// axe-core's browser build, injected into the page under test (never fetched from a CDN).
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string; failureSummary?: string }[];
}

/**
 * Runs axe-core on the page as it is (or on the element `within` selects) and returns its serious
 * and critical violations, one line each (rule, help, the first elements), so a failing test says
 * what to fix.
 */
export async function seriousA11yViolations(page: Page, within?: string): Promise<string[]> {
  // A fade or slide in progress blends colours, and axe would measure the blend's contrast: wait
  // until finite animations end (spinners run forever and are left alone).
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
    undefined,
    { timeout: 5_000 },
  );
  // Evaluated through the DevTools protocol, which the page's script-src policy does not govern
  // (a <script> tag would be blocked by it, as it should be).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(`${axeSource}\n;undefined`);
  const violations = await page.evaluate(async (selector) => {
    const axe = (
      window as unknown as {
        axe: { run(context: Document | Element, options: object): Promise<{ violations: unknown[] }> };
      }
    ).axe;
    const context = selector ? document.querySelector(selector) : document;
    if (!context) throw new Error(`no element matches ${selector}`);
    const result = await axe.run(context, { resultTypes: ['violations'] });
    return result.violations;
  }, within);
  return (violations as AxeViolation[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map(
            (n) =>
              `${n.html.slice(0, 160)}${n.failureSummary ? ` [${n.failureSummary.replace(/\s+/g, ' ').trim()}]` : ''}`,
          )
          .join(', ')}`,
    );
}
