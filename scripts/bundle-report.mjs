#!/usr/bin/env node
// @ts-check
/**
 * `npm run bundle-report`: where the bytes of the browser bundles go.
 *
 * Builds the site with source maps (`BUNDLE_REPORT=1`, src/plugins/sourceMaps.ts) into a
 * temporary folder, then, for each bundle asked for (default: the two every page loads, the
 * runtime and `main`), attributes every byte of the minified file to the source it came from
 * and prints the largest packages and site folders: raw bytes, their share, and that share of
 * the file's gzip size (an estimate: gzip does not split by source).
 *
 * Options: --no-build (reuse the last report build), --chunks main,runtime~main,8688 (file name
 * prefixes under assets/js), --top N (rows per bundle, default 25).
 */
import {spawnSync} from 'node:child_process';
import {existsSync, readFileSync, readdirSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {gzipSync} from 'node:zlib';
import {SourceMapConsumer} from 'source-map';
import {option} from './options.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(tmpdir(), 'nest-docs-bundle-report');

const chunks = (option('chunks') ?? 'runtime~main,main').split(',');
const top = Number(option('top') ?? 25);

if (!process.argv.includes('--no-build') || !existsSync(join(outDir, 'index.html'))) {
  console.log(`bundle-report: building with source maps into ${outDir} ...`);
  const result = spawnSync('npx', ['docusaurus', 'build', '--out-dir', outDir], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    // Without the bundler's persistent cache: modules cached by a regular build (no source
    // maps) would come out unmapped.
    env: {...process.env, BUNDLE_REPORT: '1', ADS: 'off', DOCUSAURUS_NO_PERSISTENT_CACHE: '1'},
  });
  if (result.status !== 0) {
    console.error('bundle-report: the build failed');
    process.exit(1);
  }
}

/**
 * The group a source belongs to: its package (`react-dom`, `@docusaurus/theme-classic`) or,
 * for the site's own files, their folder (`src/theme`, `.docusaurus`).
 * @param {string} source
 */
function groupOf(source) {
  const modules = source.lastIndexOf('node_modules/');
  if (modules !== -1) {
    const parts = source.slice(modules + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const site = source.replace(/^(webpack:\/\/)?[^/]*\/?\.?\//, '').split('/');
  const srcIndex = site.indexOf('src');
  if (srcIndex !== -1) return site.slice(srcIndex, srcIndex + 2).join('/');
  const generated = site.indexOf('.docusaurus');
  if (generated !== -1) return `.docusaurus/${site.slice(generated + 1, generated + 2).join('/')}`;
  return `(other) ${site.slice(-2).join('/')}`;
}

const jsDir = join(outDir, 'assets', 'js');
const files = readdirSync(jsDir);
for (const prefix of chunks) {
  const file = files.find((name) => name.startsWith(`${prefix}.`) && name.endsWith('.js'));
  if (!file || !files.includes(`${file}.map`)) {
    console.log(`\nno bundle (with a map) named ${prefix}.*.js`);
    continue;
  }
  const code = readFileSync(join(jsDir, file), 'utf8');
  const lines = code.split('\n');
  const map = JSON.parse(readFileSync(join(jsDir, `${file}.map`), 'utf8'));
  /** @type {Map<string, number>} */
  const bytes = new Map();
  let mapped = 0;
  await SourceMapConsumer.with(map, null, (consumer) => {
    /** @type {{line: number, column: number, source: string | null}[]} */
    const marks = [];
    consumer.eachMapping((mapping) =>
      marks.push({
        line: mapping.generatedLine,
        column: mapping.generatedColumn,
        source: mapping.source,
      }),
    );
    marks.sort((a, b) => a.line - b.line || a.column - b.column);
    marks.forEach((mark, index) => {
      const next = marks[index + 1];
      const end =
        next && next.line === mark.line ? next.column : (lines[mark.line - 1] ?? '').length;
      const length = Buffer.byteLength((lines[mark.line - 1] ?? '').slice(mark.column, end));
      const group = mark.source ? groupOf(mark.source) : '(unmapped)';
      bytes.set(group, (bytes.get(group) ?? 0) + length);
      mapped += length;
    });
  });
  const raw = Buffer.byteLength(code);
  const gzip = gzipSync(code, {level: 9}).length;
  bytes.set('(unmapped)', (bytes.get('(unmapped)') ?? 0) + Math.max(0, raw - mapped));
  console.log(
    `\n${file}: ${(raw / 1024).toFixed(1)} KiB raw, ${(gzip / 1024).toFixed(1)} KiB gzip`,
  );
  console.log(
    `${'group'.padEnd(44)} ${'raw KiB'.padStart(8)} ${'share'.padStart(6)} ${'~gzip'.padStart(6)}`,
  );
  const rows = [...bytes.entries()].sort((a, b) => b[1] - a[1]);
  for (const [group, size] of rows.slice(0, top)) {
    const share = size / raw;
    console.log(
      `${group.padEnd(44)} ${(size / 1024).toFixed(1).padStart(8)} ${(share * 100).toFixed(1).padStart(5)}% ${((share * gzip) / 1024).toFixed(1).padStart(6)}`,
    );
  }
  if (rows.length > top) console.log(`... and ${rows.length - top} smaller groups`);
}
