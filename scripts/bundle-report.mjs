#!/usr/bin/env node
// @ts-check
/**
 * `npm run bundle-report`: where the bytes of the browser bundles go.
 *
 * Builds the site with source maps (`BUNDLE_REPORT=1`, src/features/bundle/node/sourceMaps.ts) into a
 * temporary folder, then, for each bundle asked for (default: the two every page loads, the
 * runtime and `main`), attributes every byte of the minified file to the source it came from
 * and prints the largest packages and site folders: raw bytes, their share, and that share of
 * the file's gzip size (an estimate: gzip does not split by source).
 *
 * Options: --no-build (reuse the last report build), --dir DIR (a source-mapped build to read as
 * is), --chunks main,runtime~main,8688 (file name prefixes under assets/js), --top N (rows per
 * bundle, default 25).
 */
import {readFileSync, readdirSync} from 'node:fs';
import {join} from 'node:path';
import {gzipSync} from 'node:zlib';
import {SourceMapConsumer} from 'source-map';
import {option} from './options.mjs';
import {ensureReportBuild, groupOf, reportBuildDir} from './sourceMapBuild.mjs';

const chunks = (option('chunks') ?? 'runtime~main,main').split(',');
const top = Number(option('top') ?? 25);

const outDir = option('dir') ?? reportBuildDir;
if (!option('dir')) ensureReportBuild('bundle-report', process.argv.includes('--no-build'));

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
