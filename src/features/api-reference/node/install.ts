/**
 * The declarations the reference is read from: the packages pinned in `tools/samples` (the same
 * tree `npm run check:types` type-checks the samples against). A fresh clone has no
 * `tools/samples/node_modules`: the build installs it with `npm ci` there, once, the way
 * tools/check-types/cli.mjs does. The site's own dependencies cannot hold them: @nestjs/graphql 9
 * needs graphql 15, the site's tools graphql 16. Node-only.
 */
import {spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, readFileSync, rmSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {referencePackages} from '../packages';
import {packageDir} from './extract';

/** The reference packages whose installed version is not the pinned one (or is missing). */
export function outdatedPackages(samplesDir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(samplesDir, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  return referencePackages
    .filter((pkg) => {
      const file = join(packageDir(samplesDir, pkg.name), 'package.json');
      if (!existsSync(file)) return true;
      const {version} = JSON.parse(readFileSync(file, 'utf8')) as {version: string};
      return manifest.dependencies[pkg.name] !== version;
    })
    .map((pkg) => pkg.name);
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Installs `tools/samples` when a reference package is missing or not the pinned version. One
 * install at a time (a lock directory; a lock older than 10 minutes is stale). Throws when npm
 * fails, with its exit code.
 */
export function ensureDeclarations(samplesDir: string, log: (line: string) => void): void {
  const lock = join(samplesDir, '.install-lock');
  for (let waited = 0; outdatedPackages(samplesDir).length > 0; waited += 1) {
    try {
      mkdirSync(lock);
    } catch {
      const age = Date.now() - (statSync(lock, {throwIfNoEntry: false})?.mtimeMs ?? 0);
      if (age > 600_000) rmSync(lock, {recursive: true, force: true});
      if (waited === 0) log('[api-reference] another process is installing tools/samples, waiting');
      sleep(2000);
      continue;
    }
    try {
      if (outdatedPackages(samplesDir).length === 0) break;
      log('[api-reference] installing the pinned packages in tools/samples (npm ci)');
      const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
        cwd: samplesDir,
        stdio: 'inherit',
      });
      if (result.status !== 0) {
        throw new Error(
          `[api-reference] npm ci in ${samplesDir} failed (exit ${result.status ?? result.signal})`,
        );
      }
    } finally {
      rmSync(lock, {recursive: true, force: true});
    }
  }
}
