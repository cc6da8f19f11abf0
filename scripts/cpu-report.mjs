#!/usr/bin/env node
// @ts-check
/**
 * `npm run cpu-report`: where the main thread's time goes while a page loads and hydrates.
 *
 * Uses the source-mapped build of `npm run bundle-report` (scripts/sourceMapBuild.mjs; built
 * unless --no-build finds one), serves it with scripts/serve-build.mjs, and loads the page in
 * Chromium as a first visit (a fresh context each run, the CPU slowed 4x as Lighthouse's mobile
 * profile does), sampling the JavaScript profiler from the navigation until React has hydrated
 * the page and a second more has passed. Every sample's self time is mapped through the bundles'
 * source maps and summed per package or site folder, and per function; the browser's own work
 * (style, layout, paint: `(program)`), garbage collection and DOM calls are listed by name.
 * Averages over the runs.
 *
 * Options: --page /controllers (or --pages /,/controllers), --runs 3, --cpu 4 (slowdown),
 * --width 412, --top 25, --no-build, --dir DIR (a source-mapped build to use as is),
 * --port N, --groups react-dom,react-helmet-async (groups, or text in function names such as
 * utils/reactUtils, whose per-load medians the comparison table shows; default react-dom).
 *
 * With several pages or builds, a table gives per page and build the median (min-max) of the
 * total busy time, the blocking time (long tasks' time over 50 ms after the first contentful
 * paint, what Lighthouse's TBT adds up, here observed with the CPU slowed) and the --groups.
 *
 * Before/after: --baseline DIR names a second source-mapped build (e.g. built from the commit
 * before a change). Each run then loads every page once from each build, alternating which goes
 * first, and the report gives, per page and build, the median of the per-load figures with their
 * range (total busy time and React DOM's share) over the runs: interleaved, so a busy machine
 * slows both series alike.
 */
import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {chromium} from '@playwright/test';
import {SourceMapConsumer} from 'source-map';
import {serveBuilds} from './bench/serveBuilds.mjs';
import {chromePath, chromiumArgs} from './chromium.mjs';
import {option} from './options.mjs';
import {ensureReportBuild, groupOf, reportBuildDir} from './sourceMapBuild.mjs';

const pages = (option('pages') ?? option('page') ?? '/controllers').split(',');
const runs = Number(option('runs') ?? 3);
const cpu = Number(option('cpu') ?? 4);
const width = Number(option('width') ?? 412);
const top = Number(option('top') ?? 25);
const port = Number(option('port') ?? 4420 + Math.floor(Math.random() * 500));
const dir = option('dir');
const shown = (option('groups') ?? 'react-dom').split(',');
const baseline = option('baseline');

if (!dir) ensureReportBuild('cpu-report', process.argv.includes('--no-build'));

/** @type {{label: string, dir: string, origin: string}[]} */
const builds = [
  ...(baseline ? [{label: 'baseline', dir: baseline, origin: ''}] : []),
  {label: baseline ? 'build' : '', dir: dir ?? reportBuildDir, origin: ''},
];

for (const build of builds) {
  if (!existsSync(join(build.dir, 'index.html'))) {
    console.error(`cpu-report: no build in ${build.dir}`);
    process.exit(1);
  }
}
const servers = await serveBuilds(
  builds.map((build) => build.dir),
  port,
  'cpu-report',
);
for (const [index, build] of builds.entries()) build.origin = servers.origins[index];

/** @type {Map<string, SourceMapConsumer | null>} */
const consumers = new Map();
/** @param {string} url */
async function consumerFor(url) {
  if (!consumers.has(url)) {
    const {origin, pathname} = new URL(url);
    const build = builds.find((candidate) => candidate.origin === origin);
    const file = join(build?.dir ?? reportBuildDir, pathname);
    consumers.set(
      url,
      url.includes('/assets/js/') && existsSync(`${file}.map`)
        ? await new SourceMapConsumer(JSON.parse(readFileSync(`${file}.map`, 'utf8')))
        : null,
    );
  }
  return consumers.get(url) ?? null;
}

/**
 * A profile frame as [group, function]: mapped to its source where a map covers it.
 * @param {{functionName: string, url: string, lineNumber: number, columnNumber: number}} frame
 */
async function place(frame) {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return [name.startsWith('(') ? name : `(browser) ${name}`, name];
  const consumer = await consumerFor(frame.url);
  const original = consumer?.originalPositionFor({
    line: frame.lineNumber + 1,
    column: frame.columnNumber,
  });
  if (!original?.source) {
    const file = new URL(frame.url).pathname.split('/').pop() || frame.url;
    return [
      `(unmapped) ${file}`,
      `${name} ${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`,
    ];
  }
  const source = original.source.replace(/^.*node_modules\//, '').replace(/^webpack:\/\/\/?/, '');
  return [groupOf(original.source), `${original.name ?? name} ${source}:${original.line}`];
}

/**
 * One first visit of `url`, profiled until hydrated + 1 s: the busy time per group and function.
 * @param {import('@playwright/test').Browser} browser @param {string} url
 */
async function profileLoad(browser, url) {
  const context = await browser.newContext({viewport: {width, height: 823}});
  const tab = await context.newPage();
  // Long tasks (over 50 ms) from the start: their blocking time, as TBT counts it, is read below.
  await tab.addInitScript(() => {
    /** @type {{start: number, duration: number}[]} */
    const tasks = [];
    Object.assign(window, {__longTasks: tasks});
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        tasks.push({start: entry.startTime, duration: entry.duration});
      }
    }).observe({type: 'longtask', buffered: true});
  });
  const cdp = await context.newCDPSession(tab);
  await cdp.send('Emulation.setCPUThrottlingRate', {rate: cpu});
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', {interval: 200});
  await cdp.send('Profiler.start');
  await tab.goto(url, {waitUntil: 'load'});
  // The server writes `data-has-hydrated="false"`; Docusaurus sets it to "true" once hydrated.
  await tab.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
  await tab.waitForTimeout(1000);
  const {profile} = await cdp.send('Profiler.stop');
  // The article's elements, and how many React built a fiber for (deterministic).
  const article = await tab.evaluate(() => {
    const elements = Array.from(document.querySelectorAll('[data-pagefind-body] *'));
    const fibers = elements.filter((element) =>
      Object.keys(element).some((key) => key.startsWith('__reactFiber$')),
    );
    // Blocking time after the first contentful paint (TBT's measure, to hydrated + 1 s).
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
    const tasks = /** @type {{__longTasks?: {start: number, duration: number}[]}} */ (
      /** @type {unknown} */ (window)
    ).__longTasks;
    const blocking = (tasks ?? [])
      .filter((task) => task.start >= fcp)
      .reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0);
    return {elements: elements.length, fibers: fibers.length, blocking};
  });
  await context.close();
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const deltas = profile.timeDeltas ?? [];
  const samples = profile.samples ?? [];
  /** @type {Map<string, number>} */
  const groups = new Map();
  /** @type {Map<string, number>} */
  const functions = new Map();
  let busy = 0;
  for (let i = 0; i < samples.length; i += 1) {
    const node = nodes.get(samples[i]);
    const ms = (deltas[i + 1] ?? 0) / 1000;
    if (!node || node.callFrame.functionName === '(idle)') continue;
    const [group, name] = await place(node.callFrame);
    groups.set(group, (groups.get(group) ?? 0) + ms);
    functions.set(name, (functions.get(name) ?? 0) + ms);
    busy += ms;
  }
  return {busy, groups, functions, article};
}

/** @typedef {Awaited<ReturnType<typeof profileLoad>>} Load */
/** @type {Map<string, Load[]>} loads per `${build label} ${page}` */
const loads = new Map();
const browser = await chromium.launch({executablePath: chromePath, args: chromiumArgs});
try {
  for (let run = 0; run < runs; run += 1) {
    for (const page of pages) {
      // Alternate which build goes first, so neither always loads second.
      const order = run % 2 === 0 ? builds : [...builds].reverse();
      for (const build of order) {
        const key = `${build.label} ${page}`;
        loads.set(key, [
          ...(loads.get(key) ?? []),
          await profileLoad(browser, build.origin + page),
        ]);
      }
    }
    process.stderr.write('.');
  }
} finally {
  await browser.close();
  servers.stop();
}
process.stderr.write('\n');

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** `median (min-max)` of a figure over the loads. @param {number[]} values */
const spread = (values) =>
  `${median(values).toFixed(0).padStart(5)} (${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)})`;

if (builds.length > 1 || pages.length > 1) {
  console.log(
    `\nmain-thread time per first visit at ${width} px, CPU ${cpu}x, ${runs} interleaved load(s) per page and build, until hydrated + 1 s: median (min-max), ms`,
  );
  console.log(
    `${'page'.padEnd(22)}${'build'.padEnd(10)}${'total'.padEnd(18)}${'blocking'.padEnd(18)}` +
      `${shown.map((name) => name.slice(0, 24).padEnd(26)).join('')}article elements with a fiber`,
  );
  for (const page of pages) {
    for (const build of builds) {
      const list = loads.get(`${build.label} ${page}`) ?? [];
      /** A group's or function's time in one load. @param {Load} load @param {string} name */
      const time = (load, name) =>
        load.groups.get(name) ??
        [...load.functions].reduce((sum, [key, ms]) => (key.includes(name) ? sum + ms : sum), 0);
      console.log(
        `${page.padEnd(22)}${(build.label || '-').padEnd(10)}${spread(list.map((load) => load.busy)).padEnd(18)}` +
          `${spread(list.map((load) => load.article.blocking)).padEnd(18)}` +
          shown.map((name) => spread(list.map((load) => time(load, name))).padEnd(26)).join('') +
          `${list[0]?.article.fibers ?? '-'} of ${list[0]?.article.elements ?? '-'}`,
      );
    }
  }
}

// The detail (mean per load) of the last build on the first page.
const detail = loads.get(`${builds[builds.length - 1].label} ${pages[0]}`) ?? [];
/** @type {Map<string, number>} */
const byGroup = new Map();
/** @type {Map<string, number>} */
const byFunction = new Map();
let total = 0;
for (const load of detail) {
  for (const [key, ms] of load.groups)
    byGroup.set(key, (byGroup.get(key) ?? 0) + ms / detail.length);
  for (const [key, ms] of load.functions)
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms / detail.length);
  total += load.busy / detail.length;
}
const page = pages[0];

/** @param {Map<string, number>} map */
const rows = (map) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(
      ([key, ms]) =>
        `${ms.toFixed(1).padStart(8)} ms ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${key}`,
    )
    .join('\n');
console.log(
  `\n${page}, first visit at ${width} px, CPU ${cpu}x, ${runs} run(s): ${total.toFixed(0)} ms busy on the main thread (mean per load, until hydrated + 1 s)`,
);
console.log(`\nby package or site folder\n${rows(byGroup)}`);
console.log(`\nby function\n${rows(byFunction)}`);
