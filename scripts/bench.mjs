#!/usr/bin/env node
// @ts-check
/**
 * `npm run bench`: how fast the site is, measured, not asserted in a test.
 *
 * 1. Builds the site (cold: the bundler's persistent cache is removed first), timing the
 *    wall clock and sampling the peak memory of the whole process tree, and sizes the output.
 * 2. Serves the build gzip-compressed on 127.0.0.1 (sirv behind `compression`; the stock
 *    `docusaurus serve` does not compress).
 * 3. Runs Lighthouse (the npm package, driving the system Chromium) on each page, mobile and
 *    desktop, several times, and keeps the medians: the four category scores, FCP, LCP, TBT,
 *    CLS, JavaScript and total bytes as transferred (gzip), and the request count.
 *
 * Two variants: `first-party` (ADS=off, no Algolia: our own bytes only) and `defaults` (the
 * ad script on, as a production build without ADS=off has it; its host is unreachable here,
 * which is what a blocked or slow ad network looks like). Prints a table, writes the figures to
 * bench/results/<time>.json (and latest.json), and checks the first-party figures against
 * bench/budgets.json. Exit code 1 when a budget is missed.
 *
 * 4. Measures search cold on the first-party build (scripts/search-bench.mjs): a reader on a
 *    phone-class connection taps the header box and types; the time to the first suggestion and
 *    the bytes the server sent for it.
 *
 * Options: --runs N (default 3), --variants first-party,defaults, --pages /,/controllers,
 * --no-build (reuse the builds from the previous run), --search-only (no Lighthouse),
 * --search 'one word at 4 s,three words' (only these search-cold queries).
 *
 * Before/after: --compare before=DIR,after=DIR runs Lighthouse mobile on existing builds,
 * interleaved (scripts/bench/compare.mjs). Nothing is built and no budget is checked.
 * Lighthouse and the server live in tools/bench (own package.json, installed on first use).
 */
import {existsSync, mkdirSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative} from 'node:path';
import {timedBuild} from './bench/build.mjs';
import {compareBuilds} from './bench/compare.mjs';
import {audit, ensurePackages, launchChrome, median, summarize} from './bench/lighthouse.mjs';
import {resultsDir, root} from './bench/paths.mjs';
import {checkBudgets, searchTable, table} from './bench/report.mjs';
import {serve} from './bench/server.mjs';
import {option} from './options.mjs';
import {searchCold} from './search-bench.mjs';

/**
 * @typedef {import('./bench/lighthouse.mjs').Run} Run
 * @typedef {import('./bench/report.mjs').SearchRun} SearchRun
 */

const runs = Number(option('runs') ?? 3);
const variants = (option('variants') ?? 'first-party,defaults').split(',');
const pages = (option('pages') ?? '/,/controllers,/techniques/queues').split(',');
const build = !process.argv.includes('--no-build');
const searchOnly = process.argv.includes('--search-only');
/**
 * The search-cold queries: what a reader types, the lead from the tap to the first key, and when
 * (ms after the page's load event; none: once the page's own requests are over). The one-word
 * query at 1.5 s, 4 s and 15 s is the reader who searches while the page still settles (and the
 * offline worker may be installing), and long after.
 */
const searchQueries = [
  {name: 'one word at 1.5 s', query: 'ParseIntPipe', leadMs: 300, atMs: 1500},
  {name: 'one word at 4 s', query: 'ParseIntPipe', leadMs: 300, atMs: 4000},
  {name: 'one word at 15 s', query: 'ParseIntPipe', leadMs: 300, atMs: 15000},
  {name: 'one word', query: 'ParseIntPipe', leadMs: 300},
  {name: 'one word, no lead', query: 'ParseIntPipe', leadMs: 0},
  {name: 'three words', query: 'validate query params', leadMs: 300},
];
const formFactors = /** @type {const} */ (['mobile', 'desktop']);

async function main() {
  ensurePackages();
  const compare = option('compare');
  if (compare) return compareBuilds(compare, {runs, pages});
  const outRoot = join(tmpdir(), 'nestjs-docs-bench');
  /** @type {Record<string, unknown>} */
  const report = {
    date: new Date().toISOString(),
    runs,
    pages,
    machine: {cpus: (await import('node:os')).cpus().length, node: process.version},
  };
  /** @type {Record<string, Record<string, Record<string, Run>>>} */
  const all = {};
  /** @type {Record<string, unknown>} */
  const builds = {};
  /** @type {Record<string, SearchRun>} */
  const search = {};
  for (const [index, variant] of variants.entries()) {
    const outDir = join(outRoot, variant);
    const env = {...process.env};
    delete env.ALGOLIA_APP_ID;
    delete env.ALGOLIA_API_KEY;
    if (variant === 'first-party') env.ADS = 'off';
    else delete env.ADS;
    if (build || !existsSync(join(outDir, 'index.html'))) {
      console.log(`bench: building ${variant}${index === 0 ? ' (cold cache)' : ''}...`);
      builds[variant] = await timedBuild(outDir, env, index === 0);
      const figures = /** @type {Awaited<ReturnType<typeof timedBuild>>} */ (builds[variant]);
      console.log(
        `bench: ${variant} build ${figures.seconds.toFixed(1)} s wall, peak ${figures.peakMemoryMiB.toFixed(0)} MiB, ` +
          `${(figures.size.bytes / 2 ** 20).toFixed(1)} MiB in ${figures.size.files} files`,
      );
    }
    const server = await serve(outDir);
    const chrome = await launchChrome();
    /** @type {Record<string, Record<string, Run>>} */
    const results = {};
    try {
      for (const page of searchOnly ? [] : pages) {
        results[page] = {};
        for (const formFactor of formFactors) {
          /** @type {Run[]} */
          const list = [];
          for (let run = 0; run < runs; run += 1) {
            list.push(await audit(`${server.origin}${page}`, formFactor, chrome.port));
          }
          results[page][formFactor] = summarize(list);
          process.stdout.write('.');
        }
      }
      if (variant === 'first-party') {
        const only = option('search')?.split(',');
        for (const {name, query, leadMs, atMs} of searchQueries) {
          if (only && !only.includes(name)) continue;
          /** @type {Omit<SearchRun, 'query' | 'leadMs'>[]} */
          const list = [];
          for (let run = 0; run < runs; run += 1) {
            list.push(await searchCold(server.origin, server.counter, {query, leadMs, atMs}));
          }
          const medians = Object.fromEntries(
            Object.keys(list[0]).map((key) => [
              key,
              median(list.map((run) => run[/** @type {keyof typeof run} */ (key)])),
            ]),
          );
          search[name] = /** @type {SearchRun} */ ({query, leadMs, ...medians});
          process.stdout.write('.');
        }
      }
    } finally {
      await chrome.kill();
      server.close();
    }
    all[variant] = results;
    if (!searchOnly) table(variant, results, runs);
  }
  searchTable(search, runs);
  for (const [variant, results] of Object.entries(all)) {
    for (const [page, byForm] of Object.entries(results)) {
      for (const [form, run] of Object.entries(byForm)) {
        if (run.failing.length > 0)
          console.log(`  ${variant} ${page} ${form}: audits below 100: ${run.failing.join(', ')}`);
      }
    }
  }
  const mobileScripts = all[variants[0]]?.['/controllers']?.mobile?.scripts;
  if (mobileScripts)
    console.log(
      `\nscripts on /controllers (${variants[0]}, KiB gzip):\n  ${mobileScripts.join('\n  ')}`,
    );
  for (const [variant, figures] of Object.entries(builds)) {
    const {seconds, peakMemoryMiB, size} = /** @type {Awaited<ReturnType<typeof timedBuild>>} */ (
      figures
    );
    console.log(
      `build ${variant}: ${seconds.toFixed(1)} s wall, peak memory ${peakMemoryMiB.toFixed(0)} MiB, build/ ${(size.bytes / 2 ** 20).toFixed(1)} MiB`,
    );
  }
  const firstParty = all['first-party'];
  const missed = firstParty
    ? checkBudgets(
        firstParty,
        /** @type {{seconds: number} | undefined} */ (builds['first-party']),
        search,
      )
    : 0;
  Object.assign(report, {builds, results: all, search, budgetsMissed: missed});
  mkdirSync(resultsDir, {recursive: true});
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  writeFileSync(join(resultsDir, `${stamp}.json`), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(resultsDir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nbench: figures written to ${relative(root, join(resultsDir, `${stamp}.json`))}`);
  return missed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`bench: ${error instanceof Error ? error.stack : error}`);
    process.exit(2);
  },
);
