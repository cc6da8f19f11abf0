// @ts-check
/**
 * The source-mapped build shared by `npm run bundle-report` (where the bytes go) and
 * `npm run cpu-report` (where the main thread's time goes): built once into a temporary folder
 * with `BUNDLE_REPORT=1` (src/features/bundle/node/sourceMaps.ts), and the grouping of sources into packages
 * and site folders both reports print.
 */
import {spawnSync} from 'node:child_process';
import {existsSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const reportBuildDir = join(tmpdir(), 'nest-docs-bundle-report');

/**
 * Builds the site with source maps into `reportBuildDir`, unless `reuse` is set and a build is
 * there. Exits the process if the build fails.
 * @param {string} name the calling script, for its messages
 * @param {boolean} reuse
 */
export function ensureReportBuild(name, reuse) {
  if (reuse && existsSync(join(reportBuildDir, 'index.html'))) return;
  console.log(`${name}: building with source maps into ${reportBuildDir} ...`);
  // From an empty folder: over a stale one left by an earlier run, the build once failed to
  // find its own server bundle (ENOENT on __server/server.bundle.js).
  rmSync(reportBuildDir, {recursive: true, force: true});
  const result = spawnSync('npx', ['docusaurus', 'build', '--out-dir', reportBuildDir], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    // Without the bundler's persistent cache: modules cached by a regular build (no source
    // maps) would come out unmapped.
    env: {...process.env, BUNDLE_REPORT: '1', ADS: 'off', DOCUSAURUS_NO_PERSISTENT_CACHE: '1'},
  });
  if (result.status !== 0) {
    console.error(`${name}: the build failed`);
    process.exit(1);
  }
}

/**
 * The group a source belongs to: its package (`react-dom`, `@docusaurus/theme-classic`) or,
 * for the site's own files, their feature or folder (`src/features/search`, `src/theme`,
 * `.docusaurus`).
 * @param {string} source
 */
export function groupOf(source) {
  const modules = source.lastIndexOf('node_modules/');
  if (modules !== -1) {
    const parts = source.slice(modules + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const site = source.replace(/^(webpack:\/\/)?[^/]*\/?\.?\//, '').split('/');
  const srcIndex = site.indexOf('src');
  // src/features/<feature> for the features, src/<folder> for the rest (src/theme, src/pages).
  if (srcIndex !== -1) {
    const depth = site[srcIndex + 1] === 'features' ? 3 : 2;
    return site.slice(srcIndex, srcIndex + depth).join('/');
  }
  const generated = site.indexOf('.docusaurus');
  if (generated !== -1) return `.docusaurus/${site.slice(generated + 1, generated + 2).join('/')}`;
  return `(other) ${site.slice(-2).join('/')}`;
}
