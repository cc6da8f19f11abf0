// Compares each written page with the depth reference in
// scripts/reference/pages.tsv: prose words (code, front matter and markup
// excluded), fenced code blocks, and TypeScript/JavaScript pairs.
//   node scripts/depth-report.mjs [route-prefix...]
import {existsSync, readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {dirname, join} from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rows = readFileSync(join(root, 'scripts/reference/pages.tsv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [route, title, words, blocks, pairs] = line.split('\t');
    return {route, title, words: +words, blocks: +blocks, pairs: +pairs};
  });

export function measure(source) {
  const body = source.replace(/^---\n[\s\S]*?\n---\n/, '');
  let words = 0;
  let blocks = 0;
  let pairs = 0;
  let inFence = false;
  let fence = '';
  for (const line of body.split('\n')) {
    const open = line.match(/^(\s*)(`{3,}|~{3,})/);
    if (!inFence && open) {
      inFence = true;
      fence = open[2];
      blocks += 1;
      continue;
    }
    if (inFence) {
      if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') {
        inFence = false;
      } else if (line.trim() === '@@switch') {
        pairs += 1;
      }
      continue;
    }
    const prose = line
      .replace(/^:::\w*(\[[^\]]*\])?/, '')
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, ' ')
      .replace(/[#>*_|]/g, ' ');
    words += prose.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  }
  return {words, blocks, pairs};
}

const prefixes = process.argv.slice(2);
const pad = (value, width) => String(value).padStart(width);
console.log('route'.padEnd(38) + '   words/ref    blocks/ref   pairs/ref  status');
let short = 0;
for (const row of rows) {
  if (prefixes.length && !prefixes.some((prefix) => row.route.startsWith(prefix))) continue;
  const id = row.route === '/' ? 'introduction' : row.route.slice(1);
  const file = ['.md', '.mdx'].map((ext) => join(root, 'docs', id + ext)).find(existsSync);
  if (!file) {
    console.log(row.route.padEnd(38) + '   (pending)');
    continue;
  }
  const m = measure(readFileSync(file, 'utf8'));
  const ok = m.words >= 0.9 * row.words && m.blocks >= 0.9 * row.blocks && m.pairs >= row.pairs;
  if (!ok) short += 1;
  console.log(
    row.route.padEnd(38) +
      `${pad(m.words, 6)}/${pad(row.words, 5)} ${pad(m.blocks, 6)}/${pad(row.blocks, 3)} ${pad(m.pairs, 6)}/${pad(row.pairs, 2)}    ${ok ? 'ok' : 'SHORT'}`,
  );
}
if (short) console.log(`${short} page(s) below 90% of the reference or missing pairs`);
