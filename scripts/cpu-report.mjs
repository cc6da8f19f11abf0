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
 * Options: --page /controllers, --runs 3, --cpu 4 (slowdown), --width 412, --top 25,
 * --no-build.
 */
import {spawn} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {chromium} from '@playwright/test';
import {SourceMapConsumer} from 'source-map';
import {chromePath, chromiumArgs} from './chromium.mjs';
import {option} from './options.mjs';
import {ensureReportBuild, groupOf, reportBuildDir} from './sourceMapBuild.mjs';

const page = option('page') ?? '/controllers';
const runs = Number(option('runs') ?? 3);
const cpu = Number(option('cpu') ?? 4);
const width = Number(option('width') ?? 412);
const top = Number(option('top') ?? 25);
const port = 4420 + Math.floor(Math.random() * 500);

ensureReportBuild('cpu-report', process.argv.includes('--no-build'));

const server = spawn(
  process.execPath,
  [join(import.meta.dirname, 'serve-build.mjs'), '--dir', reportBuildDir, '--port', String(port)],
  {stdio: ['ignore', 'pipe', 'inherit']},
);
await new Promise((resolve, reject) => {
  server.stdout?.once('data', resolve);
  server.once('exit', () => reject(new Error('cpu-report: the server did not start')));
});

/** @type {Map<string, SourceMapConsumer | null>} */
const consumers = new Map();
/** @param {string} url */
async function consumerFor(url) {
  if (!consumers.has(url)) {
    const file = join(reportBuildDir, new URL(url).pathname);
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

/** @type {Map<string, number>} */
const byGroup = new Map();
/** @type {Map<string, number>} */
const byFunction = new Map();
let total = 0;
const browser = await chromium.launch({executablePath: chromePath, args: chromiumArgs});
try {
  for (let run = 0; run < runs; run += 1) {
    const context = await browser.newContext({viewport: {width, height: 823}});
    const tab = await context.newPage();
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Emulation.setCPUThrottlingRate', {rate: cpu});
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', {interval: 200});
    await cdp.send('Profiler.start');
    await tab.goto(`http://127.0.0.1:${port}${page}`, {waitUntil: 'load'});
    await tab.waitForFunction(() => document.documentElement.hasAttribute('data-has-hydrated'));
    await tab.waitForTimeout(1000);
    const {profile} = await cdp.send('Profiler.stop');
    await context.close();
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const deltas = profile.timeDeltas ?? [];
    const samples = profile.samples ?? [];
    for (let i = 0; i < samples.length; i += 1) {
      const node = nodes.get(samples[i]);
      const ms = (deltas[i + 1] ?? 0) / 1000 / runs;
      if (!node || node.callFrame.functionName === '(idle)') continue;
      const [group, name] = await place(node.callFrame);
      byGroup.set(group, (byGroup.get(group) ?? 0) + ms);
      byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
      total += ms;
    }
  }
} finally {
  await browser.close();
  server.kill();
}

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
