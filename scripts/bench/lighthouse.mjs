// @ts-check
/**
 * Lighthouse for the bench (tools/bench: its own package.json, installed on first use): one
 * audit reduced to the figures the bench reports, medians over runs, the system Chromium.
 */
import {spawnSync} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {chromePath, chromiumArgs} from '../chromium.mjs';
import {benchDir} from './paths.mjs';

export function ensurePackages() {
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

/**
 * One Lighthouse run, reduced to the figures we report.
 * @param {string} url @param {'mobile' | 'desktop'} formFactor @param {number} port
 */
export async function audit(url, formFactor, port) {
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
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** @typedef {Awaited<ReturnType<typeof audit>>} Run */

/** Medians of the numeric figures; the failing audits seen in any run. @param {Run[]} list */
export function summarize(list) {
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
export async function launchChrome() {
  const require = createRequire(join(benchDir, 'node_modules', 'lighthouse', 'package.json'));
  const chromeLauncher = await import(pathToFileURL(require.resolve('chrome-launcher')).href);
  return chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless=new', ...chromiumArgs],
  });
}
