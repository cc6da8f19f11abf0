#!/usr/bin/env node
// @ts-check
/**
 * `node scripts/static-article-probe.mjs [--dir build] [--port 4183] [--page /controllers]`:
 * what React does to the adopted article of a built page (src/features/static-article/README.md),
 * case by case, in the system Chromium. Run it after a React or Docusaurus upgrade to see which
 * of the mechanism's conditions still hold (tests/e2e/static-article.spec.ts checks the first).
 *
 * 1. A normal first load: the article's nodes, sampled at DOMContentLoaded, are kept.
 * 2. A re-render of `StaticArticle` (through the state hook of its adoption, found from the
 *    article's fiber): the element keeps the same `dangerouslySetInnerHTML` object, so React,
 *    which compares the prop by identity, leaves the nodes alone. (The cases with a new object,
 *    which empty or re-parse the article, were measured with this script at commit cc96eb1,
 *    when the object was held in that state: README.)
 * 3. A hydration mismatch in the shell (the header's menu button, which is hydrated, replaced
 *    before React runs): React 19 renders the whole root again on the client (its
 *    onRecoverableError is logged); StaticArticle and the shell's static parts move the
 *    server's nodes into their new elements.
 */
import {spawn} from 'node:child_process';
import {join} from 'node:path';
import {chromium} from '@playwright/test';
import {chromePath, chromiumArgs} from './chromium.mjs';
import {option} from './options.mjs';

const dir = option('dir') ?? 'build';
const port = Number(option('port') ?? 4183);
const path = option('page') ?? '/controllers';
const origin = `http://127.0.0.1:${port}`;

const server = spawn(
  process.execPath,
  [join(import.meta.dirname, 'serve-build.mjs'), '--dir', dir, '--port', String(port)],
  {stdio: ['ignore', 'pipe', 'inherit']},
);
await new Promise((resolve, reject) => {
  server.stdout?.once('data', resolve);
  server.once('exit', () => reject(new Error('static-article-probe: the server did not start')));
});

const browser = await chromium.launch({executablePath: chromePath, args: chromiumArgs});

/**
 * Loads the page, optionally breaking the shell before React runs, and reports how many of the
 * article's and the static parts' sampled nodes are still the server's.
 * @param {string} name @param {boolean} breakShell
 */
async function load(name, breakShell) {
  const page = await browser.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text().slice(0, 100));
  });
  await page.addInitScript((breakShell) => {
    document.addEventListener('DOMContentLoaded', () => {
      const article = document.querySelector('[data-static-article]');
      Object.assign(window, {
        __sample: [
          ...(article ? Array.from(article.querySelectorAll('p, pre, h2')) : []),
          // The desktop columns are static parts at a phone's width only (this is 1,280 px).
          ...Array.from(
            document.querySelectorAll('[data-static-part]:not([data-static-part^="desktop-"]) a'),
          ),
        ],
      });
      if (breakShell) {
        document.querySelector('.navbar__toggle')?.replaceWith(document.createElement('section'));
      }
    });
  }, breakShell);
  await page.goto(origin + path);
  await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
  const result = await page.evaluate(() => {
    const sample = /** @type {{__sample: Element[]}} */ (/** @type {unknown} */ (window)).__sample;
    return {sampled: sample.length, kept: sample.filter((node) => node.isConnected).length};
  });
  console.log(`${name.padEnd(44)} kept ${result.kept} of ${result.sampled} nodes`, errors);
  await page.close();
}

/**
 * Re-renders StaticArticle through the state hook of its adoption
 * (src/features/static-article/client/adopt.ts). @param {string} name
 */
async function rerender(name) {
  const page = await browser.newPage();
  await page.goto(origin + path);
  await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
  const result = await page.evaluate(async () => {
    /** @typedef {{memoizedState: any, queue: {dispatch(value: unknown): void}, next: Hook | null}} Hook */
    /** @typedef {{type: unknown, return: Fiber | null, memoizedState: Hook | null}} Fiber */
    const article = /** @type {Element & Record<string, Fiber>} */ (
      document.querySelector('[data-static-article]')
    );
    const key = Object.keys(article).find((name) => name.startsWith('__reactFiber$')) ?? '';
    /** The hook of `fiber` whose state is the kept server element, if any. @param {Fiber} fiber */
    const keptHook = (fiber) => {
      for (let hook = fiber.memoizedState; hook; hook = hook.next) {
        if (hook.memoizedState?.element === article && hook.queue) return hook;
      }
      return null;
    };
    /** @type {Fiber | null} */
    let fiber = article[key];
    while (fiber && !(typeof fiber.type === 'function' && keptHook(fiber))) fiber = fiber.return;
    const hook = fiber && keptHook(fiber);
    if (!hook) return null;
    const first = article.querySelector('p');
    hook.queue.dispatch({...hook.memoizedState});
    await new Promise((resolve) => setTimeout(resolve, 500));
    return {
      firstParagraphKept: first?.isConnected ?? false,
      paragraphs: article.querySelectorAll('p').length,
    };
  });
  console.log(`${name.padEnd(44)} ${JSON.stringify(result)}`);
  await page.close();
}

try {
  await load('1. first load', false);
  await rerender('2. re-render, same object');
  await load('3. first load, mismatch in the header', true);
} finally {
  await browser.close();
  server.kill();
}
