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
 * --no-build (reuse the builds from the previous run), --search-only (no Lighthouse).
 *
 * Before/after: --compare before=DIR,after=DIR runs Lighthouse mobile on existing builds (built
 * with ADS=off, e.g. one from the commit before a change), interleaved: each run audits every
 * page once in each build, alternating which goes first, so a busy machine slows both series
 * alike. Prints, per page and build, the median and range of each figure; writes them to
 * bench/results/compare-<time>.json. Nothing is built and no budget is checked.
 * Lighthouse and the server live in tools/bench (own package.json, installed on first use).
 */
import {spawn, spawnSync} from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import {createServer} from 'node:http';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {dirname, join, relative} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {chromePath, chromiumArgs} from './chromium.mjs';
import {option} from './options.mjs';
import {network, searchCold} from './search-bench.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = join(root, 'tools', 'bench');
const resultsDir = join(root, 'bench', 'results');
const budgetsPath = join(root, 'bench', 'budgets.json');

const runs = Number(option('runs') ?? 3);
const variants = (option('variants') ?? 'first-party,defaults').split(',');
const pages = (option('pages') ?? '/,/controllers,/techniques/queues').split(',');
const build = !process.argv.includes('--no-build');
const searchOnly = process.argv.includes('--search-only');
/** The search-cold queries: what a reader types, and the lead from the tap to the first key. */
const searchQueries = [
  {name: 'one word', query: 'ParseIntPipe', leadMs: 300},
  {name: 'one word, no lead', query: 'ParseIntPipe', leadMs: 0},
  {name: 'three words', query: 'validate query params', leadMs: 300},
];
const formFactors = /** @type {const} */ (['mobile', 'desktop']);

// ---------------------------------------------------------------- packages

function ensurePackages() {
  /** @type {{dependencies: Record<string, string>}} */
  const manifest = JSON.parse(readFileSync(join(benchDir, 'package.json'), 'utf8'));
  const outdated = Object.entries(manifest.dependencies).filter(([name, version]) => {
    const installed = join(benchDir, 'node_modules', name, 'package.json');
    return (
      !existsSync(installed) || JSON.parse(readFileSync(installed, 'utf8')).version !== version
    );
  });
  if (outdated.length === 0) return;
  console.log('bench: installing tools/bench (npm ci)...');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
    cwd: benchDir,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('npm ci in tools/bench failed');
}

// ---------------------------------------------------------------- build

/** Resident memory (bytes) of a process and all its descendants, read from /proc. @param {number} pid */
function treeRss(pid) {
  /** @type {Map<number, number[]>} */
  const children = new Map();
  /** @type {Map<number, number>} */
  const rss = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state ppid ...; rss is field 24.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const parent = Number(fields[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
      rss.set(Number(entry), Number(fields[21]) * 4096);
    } catch {
      // The process ended while we read it.
    }
  }
  let total = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const current = /** @type {number} */ (stack.pop());
    total += rss.get(current) ?? 0;
    stack.push(...(children.get(current) ?? []));
  }
  return total;
}

/** @param {string} dir @returns {{bytes: number, files: number}} */
function directorySize(dir) {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, {withFileTypes: true})) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = directorySize(path);
      bytes += inner.bytes;
      files += inner.files;
    } else {
      bytes += statSync(path).size;
      files += 1;
    }
  }
  return {bytes, files};
}

/**
 * Builds into `outDir` with `env`; cold when asked (bundler cache and generated files removed).
 * @param {string} outDir @param {NodeJS.ProcessEnv} env @param {boolean} cold
 */
async function timedBuild(outDir, env, cold) {
  if (cold) {
    rmSync(join(root, 'node_modules', '.cache', 'rspack'), {recursive: true, force: true});
    rmSync(join(root, '.docusaurus'), {recursive: true, force: true});
  }
  const started = process.hrtime.bigint();
  const child = spawn(
    process.execPath,
    [
      join(root, 'node_modules', '@docusaurus', 'core', 'bin', 'docusaurus.mjs'),
      'build',
      '--out-dir',
      outDir,
    ],
    {cwd: root, env, stdio: ['ignore', 'ignore', 'pipe']},
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let peak = 0;
  const sampler = setInterval(() => {
    if (child.pid) peak = Math.max(peak, treeRss(child.pid));
  }, 200);
  const code = await new Promise((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`build failed (exit ${code}):\n${stderr.slice(-3000)}`);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {seconds, peakMemoryMiB: peak / 2 ** 20, cold, size: directorySize(outDir)};
}

// ---------------------------------------------------------------- server

/**
 * Serves `dir` gzip-compressed on a free loopback port, the way a production host would.
 * @param {string} dir
 */
async function serve(dir) {
  const load = createRequire(join(benchDir, 'package.json'));
  /** @type {() => (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, next: () => void) => void} */
  const compression = load('compression');
  const {default: sirv} = await import(pathToFileURL(load.resolve('sirv')).href);
  const compress = compression();
  const assets = sirv(dir, {extensions: ['html'], etag: true, maxAge: 31536000, immutable: false});
  const notFound = readFileSync(join(dir, '404.html'));
  /** @type {import('./search-bench.mjs').ByteCounter} */
  const counter = {bytes: 0, urls: []};
  const server = createServer((req, res) => {
    // Count what reaches the socket: wrapped before `compression` wraps these in turn.
    const {write, end} = res;
    /** @param {unknown} chunk */
    const count = (chunk) => {
      if (typeof chunk === 'string') counter.bytes += Buffer.byteLength(chunk);
      else if (chunk instanceof Uint8Array) counter.bytes += chunk.byteLength;
    };
    res.write = /** @type {typeof res.write} */ (
      /** @type {unknown} */ (
        function (/** @type {unknown} */ chunk) {
          count(chunk);
          return Reflect.apply(write, res, arguments);
        }
      )
    );
    res.end = /** @type {typeof res.end} */ (
      /** @type {unknown} */ (
        function (/** @type {unknown} */ chunk) {
          if (typeof chunk !== 'function') count(chunk);
          return Reflect.apply(end, res, arguments);
        }
      )
    );
    counter.urls.push(req.url ?? '');
    compress(req, res, () =>
      assets(req, res, () => {
        res.writeHead(404, {'content-type': 'text/html; charset=utf-8'});
        res.end(notFound);
      }),
    );
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('server has no port');
  return {origin: `http://127.0.0.1:${address.port}`, counter, close: () => server.close()};
}

// ---------------------------------------------------------------- lighthouse

/**
 * One Lighthouse run, reduced to the figures we report.
 * @param {string} url @param {'mobile' | 'desktop'} formFactor @param {number} port
 */
async function audit(url, formFactor, port) {
  const require = createRequire(join(benchDir, 'package.json'));
  const {default: lighthouse} = await import(pathToFileURL(require.resolve('lighthouse')).href);
  const config =
    formFactor === 'desktop'
      ? (
          await import(
            pathToFileURL(join(benchDir, 'node_modules/lighthouse/core/config/desktop-config.js'))
              .href
          )
        ).default
      : undefined;
  const result = await lighthouse(url, {port, output: 'json', logLevel: 'error'}, config);
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse returned nothing for ${url}`);
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  /** @type {{url: string, resourceType?: string, transferSize?: number}[]} */
  const requests = lhr.audits['network-requests']?.details?.items ?? [];
  const score = (/** @type {string} */ id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const value = (/** @type {string} */ id) => lhr.audits[id]?.numericValue ?? NaN;
  const failing = Object.values(lhr.categories)
    .flatMap((category) => category.auditRefs)
    .filter((ref) => ref.weight > 0)
    .map((ref) => lhr.audits[ref.id])
    .filter(
      (item) => item.score !== null && item.score < 1 && item.scoreDisplayMode !== 'informative',
    )
    .map((item) => item.id);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcpMs: value('first-contentful-paint'),
    lcpMs: value('largest-contentful-paint'),
    tbtMs: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    jsKiB:
      requests
        .filter((request) => request.resourceType === 'Script')
        .reduce((sum, request) => sum + (request.transferSize ?? 0), 0) / 1024,
    totalKiB: value('total-byte-weight') / 1024,
    requests: requests.length,
    scripts: requests
      .filter((request) => request.resourceType === 'Script')
      .map(
        (request) =>
          `${new URL(request.url).pathname} ${((request.transferSize ?? 0) / 1024).toFixed(1)}`,
      ),
    failing: [...new Set(failing)],
  };
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** @typedef {Awaited<ReturnType<typeof audit>>} Run */

/** Medians of the numeric figures; the failing audits seen in any run. @param {Run[]} list */
function summarize(list) {
  /** @type {Record<string, unknown>} */
  const summary = {};
  for (const key of Object.keys(list[0])) {
    const values = list.map((run) => run[/** @type {keyof Run} */ (key)]);
    summary[key] =
      typeof values[0] === 'number'
        ? median(/** @type {number[]} */ (values))
        : key === 'failing'
          ? [...new Set(values.flat())]
          : values[0];
  }
  return /** @type {Run} */ (summary);
}

/** Launches the system Chromium with a remote-debugging port for Lighthouse. */
async function launchChrome() {
  const require = createRequire(join(benchDir, 'node_modules', 'lighthouse', 'package.json'));
  const chromeLauncher = await import(pathToFileURL(require.resolve('chrome-launcher')).href);
  return chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless=new', ...chromiumArgs],
  });
}

// ---------------------------------------------------------------- report

/** @param {number} value @param {number} digits */
const fixed = (value, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

/** @param {string} variant @param {Record<string, Record<string, Run>>} results */
function table(variant, results) {
  const head = [
    'page',
    'form',
    'perf',
    'a11y',
    'bp',
    'seo',
    'FCP ms',
    'LCP ms',
    'TBT ms',
    'CLS',
    'JS KiB',
    'total KiB',
    'reqs',
  ];
  const rows = [head];
  for (const [page, byForm] of Object.entries(results)) {
    for (const [form, run] of Object.entries(byForm)) {
      rows.push([
        page,
        form,
        fixed(run.performance),
        fixed(run.accessibility),
        fixed(run.bestPractices),
        fixed(run.seo),
        fixed(run.fcpMs),
        fixed(run.lcpMs),
        fixed(run.tbtMs),
        fixed(run.cls, 3),
        fixed(run.jsKiB, 1),
        fixed(run.totalKiB, 1),
        fixed(run.requests),
      ]);
    }
  }
  const widths = head.map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  console.log(`\n${variant} (medians of ${runs} runs)`);
  for (const [index, row] of rows.entries()) {
    console.log(
      row
        .map((cell, column) =>
          column < 2 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]),
        )
        .join('  '),
    );
    if (index === 0) console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  }
}

/**
 * @typedef {{figure: string, formFactor?: 'mobile' | 'desktop', pages?: string[], search?: string, min?: number, max?: number, note?: string}} Budget
 * @param {Record<string, Record<string, Run>>} results
 * @param {{seconds: number} | undefined} buildFigures
 * @param {Record<string, SearchRun>} search
 */
function checkBudgets(results, buildFigures, search) {
  /** @type {{budgets: Budget[]}} */
  const {budgets} = JSON.parse(readFileSync(budgetsPath, 'utf8'));
  const lines = [];
  let missed = 0;
  for (const budget of budgets) {
    /** @type {[string, number][]} */
    const measured = [];
    if (budget.figure === 'buildSeconds') {
      if (buildFigures) measured.push(['build', buildFigures.seconds]);
    } else if (budget.search) {
      const run = search[budget.search];
      const key = /** @type {keyof SearchRun} */ (
        budget.figure.replace(/^search/, '').replace(/^./, (c) => c.toLowerCase())
      );
      if (run) measured.push([`search "${run.query}" (${budget.search})`, Number(run[key])]);
    } else {
      for (const page of budget.pages ?? Object.keys(results)) {
        const run = results[page]?.[budget.formFactor ?? 'mobile'];
        if (run)
          measured.push([
            page,
            /** @type {number} */ (run[/** @type {keyof Run} */ (budget.figure)]),
          ]);
      }
    }
    for (const [where, value] of measured) {
      const holds =
        (budget.min === undefined || value >= budget.min) &&
        (budget.max === undefined || value <= budget.max);
      if (!holds) missed += 1;
      const limit = budget.min !== undefined ? `>= ${budget.min}` : `<= ${budget.max}`;
      lines.push(
        `${holds ? 'holds ' : 'MISSED'}  ${budget.figure} ${budget.formFactor ?? ''} ${where}: ${fixed(value, budget.figure === 'cls' ? 3 : 1)} (budget ${limit})`,
      );
    }
  }
  console.log(`\nbudgets (${relative(root, budgetsPath)}, first-party figures)`);
  for (const line of lines) console.log(`  ${line}`);
  return missed;
}

/**
 * @typedef {{query: string, leadMs: number, firstMs: number, firstKiB: number, settledMs: number, settledKiB: number, requests: number}} SearchRun
 * @param {Record<string, SearchRun>} search
 */
function searchTable(search) {
  const entries = Object.entries(search);
  if (entries.length === 0) return;
  console.log(
    `\nsearch cold on /controllers (medians of ${runs}; ${network.latencyMs} ms RTT, ` +
      `${network.downloadKbps / 1000} Mbit/s down, ${network.cpuSlowdown}x CPU, cold cache)`,
  );
  console.log(
    'query                                    lead ms  first ms  first KiB  settled ms  settled KiB  reqs',
  );
  for (const [name, run] of entries) {
    console.log(
      `${`${name}: "${run.query}"`.padEnd(40)}${fixed(run.leadMs).padStart(8)}${fixed(run.firstMs).padStart(10)}` +
        `${fixed(run.firstKiB, 1).padStart(11)}${fixed(run.settledMs).padStart(12)}` +
        `${fixed(run.settledKiB, 1).padStart(13)}${fixed(run.requests).padStart(6)}`,
    );
  }
}

// ---------------------------------------------------------------- compare

/** `median (min-max)` of a figure. @param {number[]} values @param {number} digits */
function spread(values, digits = 0) {
  return `${fixed(median(values), digits)} (${fixed(Math.min(...values), digits)}-${fixed(Math.max(...values), digits)})`;
}

/**
 * Lighthouse mobile on existing builds, interleaved (see the file comment).
 * @param {string} spec `label=dir,label=dir`
 */
async function compareBuilds(spec) {
  const builds = spec.split(',').map((entry) => {
    const [label, dir] = entry.split('=');
    if (!label || !dir || !existsSync(join(dir, 'index.html')))
      throw new Error(`--compare: no build at "${dir}" (expected label=dir,label=dir)`);
    return {label, dir};
  });
  const servers = await Promise.all(builds.map((build) => serve(build.dir)));
  const chrome = await launchChrome();
  /** @type {Record<string, Record<string, Run[]>>} */
  const results = {};
  try {
    for (let run = 0; run < runs; run += 1) {
      for (const page of pages) {
        const order = builds.map((build, index) => ({...build, server: servers[index]}));
        if (run % 2 === 1) order.reverse();
        for (const build of order) {
          results[page] ??= {};
          (results[page][build.label] ??= []).push(
            await audit(`${build.server.origin}${page}`, 'mobile', chrome.port),
          );
        }
      }
      process.stdout.write('.');
    }
  } finally {
    await chrome.kill();
    for (const server of servers) server.close();
  }
  const figures = /** @type {const} */ ([
    ['performance', 'perf', 0],
    ['fcpMs', 'FCP ms', 0],
    ['lcpMs', 'LCP ms', 0],
    ['tbtMs', 'TBT ms', 0],
    ['cls', 'CLS', 3],
    ['jsKiB', 'JS KiB', 1],
  ]);
  console.log(`\nLighthouse mobile, ${runs} interleaved runs per page and build: median (min-max)`);
  const rows = [['page', 'build', ...figures.map(([, name]) => name)]];
  for (const [page, byBuild] of Object.entries(results)) {
    for (const [label, list] of Object.entries(byBuild)) {
      rows.push([
        page,
        label,
        ...figures.map(([key, , digits]) =>
          spread(
            list.map((item) => /** @type {number} */ (item[key])),
            digits,
          ),
        ),
      ]);
    }
  }
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows) {
    console.log(row.map((cell, column) => cell.padEnd(widths[column])).join('  '));
  }
  mkdirSync(resultsDir, {recursive: true});
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = join(resultsDir, `compare-${stamp}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({date: new Date().toISOString(), runs, pages, builds, results}, null, 2)}\n`,
  );
  console.log(`\nbench: figures written to ${relative(root, file)}`);
  return 0;
}

// ---------------------------------------------------------------- main

async function main() {
  ensurePackages();
  const compare = option('compare');
  if (compare) return compareBuilds(compare);
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
        for (const {name, query, leadMs} of searchQueries) {
          /** @type {Omit<SearchRun, 'query' | 'leadMs'>[]} */
          const list = [];
          for (let run = 0; run < runs; run += 1) {
            list.push(await searchCold(server.origin, server.counter, {query, leadMs}));
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
    if (!searchOnly) table(variant, results);
  }
  searchTable(search);
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
