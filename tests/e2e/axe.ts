/**
 * axe-core in the page, for scans of many pages. @axe-core/playwright's AxeBuilder injects axe
 * into every frame at each scan and finishes each run in a new blank page, about three times the
 * time of the run itself; a sweep instead loads axe-core (the copy AxeBuilder uses) into every
 * document with the context's init scripts (`useAxe`) and calls `axe.run` there (`axeViolations`).
 */
import {createRequire} from 'node:module';
import type {BrowserContext, Page} from '@playwright/test';

const axeSource = createRequire(require.resolve('@axe-core/playwright')).resolve(
  'axe-core/axe.min.js',
);

/** The rules that depend on colour: in dark mode only these are run (the markup is the same). */
export const colourRules = ['color-contrast', 'link-in-text-block'];

/** Makes axe-core available in every document this context loads. */
export async function useAxe(context: BrowserContext): Promise<void> {
  await context.addInitScript({path: axeSource});
}

export interface AxeScan {
  /** CSS selectors to scan (default: the whole document). */
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  /** Run only these rules. */
  readonly rules?: readonly string[];
}

/** Every violation of any impact, as readable lines (needs `useAxe` on the page's context). */
export async function axeViolations(page: Page, scan: AxeScan = {}): Promise<string[]> {
  return page.evaluate(async ({include, exclude, rules}) => {
    type Result = {
      violations: {id: string; impact?: string | null; nodes: {target: unknown[]}[]}[];
    };
    const {axe} = window as unknown as {
      axe?: {run(context: unknown, options: unknown): Promise<Result>};
    };
    if (!axe) throw new Error('axe-core is not loaded: call useAxe(context) first');
    const context =
      include || exclude
        ? {
            ...(include && {include: include.map((selector) => [selector])}),
            ...(exclude && {exclude: exclude.map((selector) => [selector])}),
          }
        : document;
    const results = await axe.run(context, {
      resultTypes: ['violations'],
      ...(rules && {runOnly: {type: 'rule', values: rules}}),
    });
    return results.violations.flatMap((violation) =>
      violation.nodes.map(
        (node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')}`,
      ),
    );
  }, scan);
}
