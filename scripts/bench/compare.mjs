// @ts-check
/**
 * `npm run bench -- --compare before=DIR,after=DIR`: Lighthouse mobile on existing builds (built
 * with ADS=off, e.g. one from the commit before a change), interleaved: each run audits every
 * page once in each build, alternating which goes first, so a busy machine slows both series
 * alike. Prints, per page and build, the median and range of each figure; writes them to
 * bench/results/compare-<time>.json. Nothing is built and no budget is checked.
 */
import {existsSync, mkdirSync, writeFileSync} from 'node:fs';
import {join, relative} from 'node:path';
import {audit, launchChrome, median} from './lighthouse.mjs';
import {resultsDir, root} from './paths.mjs';
import {fixed} from './report.mjs';
import {serve} from './server.mjs';

/** @typedef {import('./lighthouse.mjs').Run} Run */

/** `median (min-max)` of a figure. @param {number[]} values @param {number} digits */
function spread(values, digits = 0) {
  return `${fixed(median(values), digits)} (${fixed(Math.min(...values), digits)}-${fixed(Math.max(...values), digits)})`;
}

/**
 * @param {string} spec `label=dir,label=dir`
 * @param {{runs: number, pages: string[]}} options
 */
export async function compareBuilds(spec, {runs, pages}) {
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
