#!/usr/bin/env node
// @ts-check
/**
 * `node scripts/page-facts.mjs --builds name=DIR,name=DIR [--pages /,/controllers] [--width 412]`:
 * deterministic facts of a first visit, build against build, for what the internals patches
 * change (UPSTREAM.md; builds made with NEST_WITHOUT, src/features/bundle/node/without.ts). Per page and build:
 * - the JavaScript the page loads until hydrated and idle, gzip (each file compressed here,
 *   level 9, as a host would serve it), in total and per file;
 * - `String.prototype.localeCompare` calls (the first one sets up the ICU collator);
 * - head rewrites: `data-rh` elements removed and title text changes after the document parsed;
 * - `<link rel="prefetch">` tags added, and how many distinct files they name.
 * Each build is served by scripts/serve-build.mjs on --port (default 4470) and the next ports.
 */
import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {gzipSync} from 'node:zlib';
import {chromium} from '@playwright/test';
import {serveBuilds} from './bench/serveBuilds.mjs';
import {chromePath, chromiumArgs} from './chromium.mjs';
import {option} from './options.mjs';

const spec = option('builds');
if (!spec) {
  console.error('page-facts: --builds name=DIR,name=DIR is required');
  process.exit(2);
}
const builds = spec.split(',').map((entry) => {
  const [name, dir] = entry.split('=');
  if (!name || !dir || !existsSync(join(dir, 'index.html'))) {
    console.error(`page-facts: no build at "${dir}" (expected name=DIR)`);
    process.exit(2);
  }
  return {name, dir};
});
const pages = (option('pages') ?? '/,/controllers,/techniques/queues').split(',');
const width = Number(option('width') ?? 412);
const port = Number(option('port') ?? 4470);

const servers = await serveBuilds(
  builds.map((build) => build.dir),
  port,
  'page-facts',
);

const browser = await chromium.launch({executablePath: chromePath, args: chromiumArgs});
try {
  for (const page of pages) {
    console.log(`\n${page} at ${width} px`);
    for (const [index, build] of builds.entries()) {
      const context = await browser.newContext({viewport: {width, height: 823}});
      const tab = await context.newPage();
      /** @type {string[]} */
      const scripts = [];
      tab.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      await tab.addInitScript(() => {
        const facts = {collations: 0, headChanges: 0, prefetchTags: 0, prefetchFiles: new Set()};
        Object.assign(window, {__facts: facts});
        const original = String.prototype.localeCompare;
        /** @type {(this: string, ...args: Parameters<typeof original>) => number} */
        const counted = function (...args) {
          facts.collations += 1;
          return original.apply(this, args);
        };
        String.prototype.localeCompare = /** @type {typeof original} */ (counted);
        document.addEventListener('DOMContentLoaded', () => {
          new MutationObserver((mutations) => {
            for (const mutation of mutations) {
              const target = mutation.target;
              const element = target instanceof Element ? target : target.parentElement;
              if (element?.closest('title')) facts.headChanges += 1;
              for (const node of Array.from(mutation.removedNodes)) {
                if (node instanceof Element && node.matches('[data-rh]')) facts.headChanges += 1;
              }
              for (const node of Array.from(mutation.addedNodes)) {
                if (node instanceof HTMLLinkElement && node.rel === 'prefetch') {
                  facts.prefetchTags += 1;
                  facts.prefetchFiles.add(node.href);
                }
              }
            }
          }).observe(document.head, {childList: true, subtree: true, characterData: true});
        });
      });
      await tab.goto(`${servers.origins[index]}${page}`);
      await tab.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
      // Idle-time work (prefetches of the links in view) has run by then.
      await tab.waitForTimeout(3000);
      const facts = await tab.evaluate(() => {
        const {collations, headChanges, prefetchTags, prefetchFiles} = /** @type {any} */ (window)
          .__facts;
        return {collations, headChanges, prefetchTags, prefetchFiles: prefetchFiles.size};
      });
      await context.close();
      const sizes = [...new Set(scripts)].map((path) => {
        const bytes = gzipSync(readFileSync(join(build.dir, path)), {level: 9}).length;
        return {file: path.split('/').pop() ?? path, kib: bytes / 1024};
      });
      const total = sizes.reduce((sum, item) => sum + item.kib, 0);
      console.log(
        `  ${build.name.padEnd(12)} JS ${total.toFixed(1)} KiB gzip in ${sizes.length} files, ` +
          `localeCompare ${facts.collations}, head rewrites ${facts.headChanges}, ` +
          `prefetch tags ${facts.prefetchTags} for ${facts.prefetchFiles} files`,
      );
      for (const {file, kib} of sizes.sort((a, b) => b.kib - a.kib)) {
        console.log(`    ${kib.toFixed(1).padStart(6)} KiB  ${file}`);
      }
    }
  }
} finally {
  await browser.close();
  servers.stop();
}
