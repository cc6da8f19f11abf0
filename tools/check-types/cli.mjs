// @ts-check
// Type-checks the code samples in the docs against NestJS 8 era packages.
//   npm run check:types [file-or-dir...]    (default: docs/)
//   node tools/check-types/cli.mjs [file-or-dir...]
//
// The packages live in tools/samples (its own package.json and lock file,
// isolated from the site's dependencies); when tools/samples/node_modules is
// missing (a fresh clone) or differs from the pinned versions, `npm ci` runs
// there first.
//
// Per page, every TypeScript half that has a `@@filename(name)` becomes the
// file `name.ts` (path segments kept) of one virtual project, so that the
// samples of a page import each other the way a reader's files would. When a
// page shows the same file several times, an import resolves, among the
// versions that export the names it imports, to the one shown last before the
// importing sample (or the first one after it). A
// relative import that no sample provides gets a generated stub that exports
// the imported names as `any`. A deliberate fragment (class members, as
// check:samples accepts) is checked inside `class __Fragment {...}` whose
// index signature stands for the members the fragment does not show.
// One ts.createProgram per page, with the library files parsed once for all.
// The options are those of a Nest 8 CLI project where it matters (strict off,
// decorators with metadata, allowSyntheticDefaultImports without
// esModuleInterop, so that `import * as cookieParser from 'cookie-parser'`
// stays callable as the docs write it), plus skipLibCheck and noEmit.
//
// The JavaScript halves must use only names that the @nestjs/* packages
// really export: each name they import from one is looked up in the keys of
// require(package) from tools/samples.
//
// Known failures are listed, each with a one-line reason, in
// tools/samples/allow-list.json. Exits 1 when a sample that is not
// allow-listed fails, when less than 95% of the samples compile, when an
// allow-list entry no longer fails (stale) or the allow-list is malformed;
// 2 on a usage error.
import {spawnSync} from 'node:child_process';
import {existsSync, readFileSync, realpathSync} from 'node:fs';
import {dirname, join, relative, resolve, sep} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {writtenMarkdownFiles} from '../../src/features/markdown/node/files.mjs';
import {located} from '../../src/features/markdown/location.mjs';
import {validateAllowList} from './allowList.mjs';
import {createCompiler} from './compiler.mjs';
import {checkJavaScriptImports} from './javascript.mjs';
import {buildProject} from './project.mjs';
import {collectSamples} from './samples.mjs';

/** @typedef {import('./types').Sample} Sample */

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const samplesDir = join(root, 'tools', 'samples');
export const allowListPath = join(samplesDir, 'allow-list.json');
/** The share of samples that must compile. */
export const requiredShare = 0.95;

/**
 * The packages of tools/samples/package.json (pinned to exact versions) that
 * node_modules lacks or has at another version.
 * @returns {string[]}
 */
function outdatedPackages() {
  /** @type {{dependencies?: Record<string, string>}} */
  const manifest = JSON.parse(readFileSync(join(samplesDir, 'package.json'), 'utf8'));
  return Object.entries(manifest.dependencies ?? {})
    .filter(([name, version]) => {
      const installed = join(samplesDir, 'node_modules', name, 'package.json');
      return (
        !existsSync(installed) || JSON.parse(readFileSync(installed, 'utf8')).version !== version
      );
    })
    .map(([name]) => name);
}

/**
 * Installs tools/samples' packages when they are missing (a fresh clone) or
 * out of date.
 * @param {{log: (line: string) => void, error: (line: string) => void}} out
 */
function ensurePackages(out) {
  const outdated = outdatedPackages();
  if (outdated.length === 0) {
    return true;
  }
  out.log(
    existsSync(join(samplesDir, 'node_modules'))
      ? `check-types: tools/samples/node_modules is out of date (${outdated.slice(0, 3).join(', ')}), running npm ci...`
      : 'check-types: installing tools/samples (npm ci)...',
  );
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
    cwd: samplesDir,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) {
    out.error('check-types: npm ci in tools/samples failed');
    return false;
  }
  return true;
}

/**
 * Runs the check; returns the exit code.
 * @param {readonly string[]} args files or directories; none means docs/
 * @param {{log: (line: string) => void, error: (line: string) => void}} out
 * @returns {number}
 */
export function main(args, out = {log: console.log, error: console.error}) {
  const started = Date.now();
  const targets = args.length > 0 ? args.map((arg) => resolve(arg)) : [join(root, 'docs')];
  const missing = targets.filter((target) => !existsSync(target));
  if (missing.length > 0) {
    out.error(`check-types: no such file or directory: ${missing.join(', ')}`);
    return 2;
  }
  /** @type {unknown} */
  let allowData = [];
  try {
    allowData = JSON.parse(readFileSync(allowListPath, 'utf8'));
  } catch (error) {
    out.error(
      `check-types: cannot read ${relative(root, allowListPath)}: ${/** @type {Error} */ (error).message}`,
    );
    return 1;
  }
  const allow = validateAllowList(allowData);
  if (!ensurePackages(out)) {
    return 1;
  }
  const compiler = createCompiler(samplesDir);

  let total = 0;
  let passed = 0;
  let failing = 0;
  /** @type {Set<string>} */
  const failedIds = new Set();
  /** @type {Set<string>} */
  const pages = new Set();
  const allowed = new Map(
    allow.entries.map((entry) => [`${entry.page}\0${entry.filename}`, entry]),
  );
  for (const path of targets.flatMap((target) =>
    writtenMarkdownFiles(target, join(root, 'docs')),
  )) {
    const page = relative(root, path).split(sep).join('/');
    pages.add(page);
    const samples = collectSamples(readFileSync(path, 'utf8'), page);
    const project = buildProject(
      samples,
      // Deep enough that a @@filename such as ../x stays inside; `..` in
      // the page path (a page outside the repository) must not climb out.
      `${compiler.virtualRoot}/${page.replace(/\.mdx?$/, '').replace(/[^\w/-]/g, '_')}/p/q/r`,
    );
    const shown = relative(process.cwd(), path) || path;
    /** @type {Map<Sample, {line: number, message: string}[]>} */
    const errorsBySample = new Map();
    for (const result of compiler.compile(project)) {
      total += 1;
      if (result.errors.length === 0) {
        passed += 1;
      } else {
        errorsBySample.set(result.sample, result.errors);
      }
    }
    for (const failure of checkJavaScriptImports(samples, compiler.exportsOf)) {
      const list = errorsBySample.get(failure.sample) ?? [];
      list.push({line: failure.line, message: failure.message});
      errorsBySample.set(failure.sample, list);
    }
    for (const [sample, errors] of errorsBySample) {
      const name = sample.filename ?? '(no @@filename)';
      const id = `${page}\0${name}`;
      failedIds.add(id);
      const entry = allowed.get(id);
      if (entry) {
        out.log(
          located(shown, errors[0].line, `[allow-listed] ${name}.${sample.lang}: ${entry.reason}`),
        );
        continue;
      }
      failing += 1;
      for (const error of errors) {
        out.log(located(shown, error.line, `${name}.${sample.lang}: ${error.message}`));
      }
    }
  }

  const problems = [...allow.errors];
  for (const entry of allow.entries) {
    if (pages.has(entry.page) && !failedIds.has(`${entry.page}\0${entry.filename}`)) {
      problems.push(
        `stale allow-list entry: ${entry.page} ${entry.filename} no longer fails; remove it`,
      );
    }
  }
  for (const problem of problems) {
    out.log(`${relative(root, allowListPath)}: ${problem}`);
  }
  const share = total === 0 ? 1 : passed / total;
  out.log(
    `${passed}/${total} samples compile (${share.toFixed(2)}); ` +
      `${failing} failing outside the allow-list; ${((Date.now() - started) / 1000).toFixed(1)}s`,
  );
  if (share < requiredShare) {
    out.log(`check-types: below the required share of ${requiredShare}`);
  }
  return failing > 0 || problems.length > 0 || share < requiredShare ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
