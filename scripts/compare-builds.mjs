// @ts-check
/**
 * Compares two builds of the site, text file by text file, with what only names the build's
 * content hashes set aside, and prints every remaining difference:
 *
 *     node scripts/compare-builds.mjs <before-build> <after-build> [--show N]
 *
 * Compared: every `.html`, `.md`, `.txt`, `_headers`, `_redirects`, `.htaccess`, `nginx.conf`,
 * `offline.json`, `sitemap.xml` and `pagefind/pages.json` of both builds. Before comparing, in
 * both builds alike:
 *
 * - asset names lose their hashes: `/assets/js/1df93b7f.3c5a0b1e.js` and
 *   `/assets/js/main.9b1f2c3d.js` become `/assets/js/#.#.js` and `/assets/js/main.#.js`
 *   (chunk ids are hashes of module paths, so they change when a file moves), likewise CSS,
 *   fonts and images under `/assets/`, and the offline worker's chunk (`550.sw.js`);
 * - CSS module class names that exist in one build only are renamed when their local name
 *   (`codePair_`) matches exactly one class of the other build (`codePair_x1Yz` ->
 *   `codePair_Ab3d`): their suffix hashes the module's path;
 * - every CSP `'sha256-...'` source is replaced with a digest of the normalised text of the
 *   inline script, style or style attribute it hashes in that build, and the sources of a
 *   directive are sorted, so a script that only names hashed chunks compares equal;
 * - offline.json's lists are sorted after normalising, and its `bytes` total is reported apart
 *   (bundle sizes change with module ids).
 *
 * Files present in one build only (names normalised) are listed. Exits 1 if anything differs.
 */
import {createHash} from 'node:crypto';
import {readdirSync, readFileSync, statSync} from 'node:fs';
import {join, relative, sep} from 'node:path';
import {pathToFileURL} from 'node:url';

/** @param {string} file a path relative to the build, `/`-separated */
export function isCompared(file) {
  return (
    /\.(html|md|txt)$/.test(file) ||
    ['_headers', '_redirects', '.htaccess', 'nginx.conf', 'offline.json', 'sitemap.xml'].includes(
      file,
    ) ||
    file === 'pagefind/pages.json'
  );
}

/** @param {string} dir */
function filesOf(dir) {
  return readdirSync(dir, {recursive: true, withFileTypes: true})
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/**
 * Asset names without their content hashes (see the module comment).
 * @param {string} text
 */
export function normaliseAssets(text) {
  return text
    .replace(
      /(\/?assets\/(?:js|css|fonts|images|files)\/)([\w~.-]+?)([.-])([0-9a-f]{8,})(\.[a-z0-9]+)\b/g,
      (_, dir, name, separator, _hash, extension) =>
        `${dir}${/^([0-9a-f]{8,}|\d+)$/.test(name) ? '#' : name}${separator}#${extension}`,
    )
    .replace(/(^|[/"'\s])\d+\.sw\.js\b/g, '$1#.sw.js');
}

const cssModuleClass = /^([A-Za-z][\w-]*_)([\w-]{4})$/;
/** A `class` attribute, quoted or (minified HTML) bare. */
const classAttribute = /\sclass=(?:"([^"]*)"|([^\s"'=<>`]+))/g;

/**
 * The class names of the `class` attributes of some HTML, in document order.
 * @param {string} html
 */
function classesOf(html) {
  return [...html.matchAll(classAttribute)].flatMap(([, quoted, bare]) =>
    (quoted ?? bare ?? '').split(/\s+/).filter(Boolean),
  );
}

/**
 * Renames of CSS module classes from build A to build B (their suffix hashes the module's
 * path, so a moved module renames its classes). Found by aligning the class names of each page
 * in both builds: where A has `title_cQcI` and B `title_uL9H` at the same place, that is a
 * candidate; it is kept only if every page agrees (one B name per A name and the reverse).
 * @param {readonly [string, string][]} pages the HTML of each page in A and in B
 * @returns {Map<string, string>}
 */
export function classRenames(pages) {
  /** @type {Map<string, Set<string>>} */
  const candidates = new Map();
  for (const [htmlA, htmlB] of pages) {
    const a = classesOf(htmlA);
    const b = classesOf(htmlB);
    if (a.length !== b.length) continue;
    a.forEach((name, i) => {
      const other = b[i] ?? '';
      if (name === other) return;
      const left = cssModuleClass.exec(name);
      const right = cssModuleClass.exec(other);
      if (!left || !right || left[1] !== right[1]) return;
      candidates.set(name, (candidates.get(name) ?? new Set()).add(other));
    });
  }
  /** @type {Map<string, string>} */
  const renames = new Map();
  const taken = new Map();
  for (const [name, targets] of candidates) {
    if (targets.size !== 1) continue;
    const [target = ''] = targets;
    taken.set(target, (taken.get(target) ?? 0) + 1);
    renames.set(name, target);
  }
  for (const [name, target] of renames) if (taken.get(target) !== 1) renames.delete(name);
  return renames;
}

/** @param {string} text */
function decodeEntities(text) {
  return text
    .replace(/&#(\d+);/g, (_, code) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** @param {string} text */
const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('base64');

/**
 * For each CSP hash source of a build's inline code, a stand-in that names the normalised code.
 * @param {string[]} htmlTexts
 * @param {(text: string) => string} normalise
 */
export function inlineDigests(htmlTexts, normalise) {
  /** @type {Map<string, string>} */
  const digests = new Map();
  const add = (/** @type {string} */ text) => {
    const key = `'sha256-${sha256(text)}'`;
    if (!digests.has(key)) digests.set(key, `'inline:${sha256(normalise(text)).slice(0, 16)}'`);
  };
  for (const html of htmlTexts) {
    for (const [, text = ''] of html.matchAll(
      /<script\b(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi,
    )) {
      add(text);
    }
    for (const [, text = ''] of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) add(text);
    for (const [, quoted = ''] of html.matchAll(/\sstyle=("[^"]*"|'[^']*')/gi)) {
      add(decodeEntities(quoted.slice(1, -1)));
    }
  }
  return digests;
}

/**
 * CSP hash sources replaced by their stand-ins, each directive's sources sorted.
 * @param {string} text
 * @param {Map<string, string>} digests
 */
export function normaliseCsp(text, digests) {
  return text.replace(/(?:'sha256-[A-Za-z0-9+/=]+'[ ;]*)+/g, (run) => {
    const end = /[ ;]*$/.exec(run)?.[0] ?? '';
    const sources = run
      .slice(0, run.length - end.length)
      .split(/ +/)
      .map((source) => digests.get(source) ?? source)
      .sort();
    return sources.join(' ') + end;
  });
}

/**
 * offline.json with sorted, normalised lists and its byte total set apart.
 * @param {string} text
 * @param {(text: string) => string} normalise
 */
function normaliseSaveList(text, normalise) {
  /** @type {{pages: string[], files: string[], bytes?: number}} */
  const list = JSON.parse(normalise(text));
  return {
    text: JSON.stringify({pages: [...list.pages].sort(), files: [...list.files].sort()}, null, 1),
    bytes: list.bytes ?? 0,
  };
}

/**
 * One build, ready to compare.
 * @param {string} dir
 */
function readBuild(dir) {
  const files = filesOf(dir);
  /** @type {Map<string, string>} */
  const texts = new Map();
  for (const file of files.filter(isCompared))
    texts.set(file, readFileSync(join(dir, file), 'utf8'));
  return {dir, files, texts};
}

/**
 * The first lines at which two texts differ, with their line numbers.
 * @param {string} a
 * @param {string} b
 * @param {number} show
 */
export function firstDifferences(a, b, show) {
  const left = a.split('\n');
  const right = b.split('\n');
  /** @type {string[]} */
  const out = [];
  for (let i = 0; i < Math.max(left.length, right.length) && out.length < show; i += 1) {
    if (left[i] === right[i]) continue;
    const cut = (/** @type {string | undefined} */ line) => {
      if (line === undefined) return '(none)';
      // Long lines (minified HTML): show the stretch around the first differing character.
      let at = 0;
      const other = line === left[i] ? (right[i] ?? '') : (left[i] ?? '');
      while (at < line.length && line[at] === other[at]) at += 1;
      const start = Math.max(0, at - 60);
      return `${start > 0 ? '…' : ''}${line.slice(start, at + 140)}${at + 140 < line.length ? '…' : ''}`;
    };
    out.push(`  line ${i + 1}\n    - ${cut(left[i])}\n    + ${cut(right[i])}`);
  }
  return out;
}

/**
 * Compares two builds; returns the report's lines and whether they are the same.
 * @param {string} beforeDir
 * @param {string} afterDir
 * @param {{show?: number}} [options]
 */
export function compareBuilds(beforeDir, afterDir, {show = 3} = {}) {
  const before = readBuild(beforeDir);
  const after = readBuild(afterDir);
  const renames = classRenames(
    [...before.texts]
      .filter(([file]) => file.endsWith('.html') && after.texts.has(file))
      .map(([file, text]) => [text, after.texts.get(file) ?? '']),
  );
  const renameClasses = (/** @type {string} */ html) =>
    html.replace(classAttribute, (_, quoted, bare) => {
      const value = /** @type {string} */ (quoted ?? bare);
      const names = value.split(' ').map((name) => renames.get(name) ?? name);
      return quoted === undefined ? ` class=${names[0]}` : ` class="${names.join(' ')}"`;
    });
  const normaliseA = (/** @type {string} */ text) => normaliseAssets(renameClasses(text));
  const normaliseB = (/** @type {string} */ text) => normaliseAssets(text);
  const htmlOf = (/** @type {typeof before} */ build) =>
    [...build.texts].filter(([file]) => file.endsWith('.html')).map(([, text]) => text);
  const digestsA = inlineDigests(htmlOf(before), normaliseA);
  const digestsB = inlineDigests(htmlOf(after), normaliseB);

  /** @type {string[]} */
  const lines = [];
  let same = 0;
  let different = 0;
  const names = [...new Set([...before.texts.keys(), ...after.texts.keys()])].sort();
  for (const file of names) {
    const a = before.texts.get(file);
    const b = after.texts.get(file);
    if (a === undefined || b === undefined) {
      different += 1;
      lines.push(`${file}: only in ${a === undefined ? 'after' : 'before'}`);
      continue;
    }
    let left = normaliseCsp(normaliseA(a), digestsA);
    let right = normaliseCsp(normaliseB(b), digestsB);
    if (file === 'offline.json') {
      const savedA = normaliseSaveList(a, normaliseA);
      const savedB = normaliseSaveList(b, normaliseB);
      left = savedA.text;
      right = savedB.text;
      lines.push(
        `offline.json: bytes ${savedA.bytes} -> ${savedB.bytes} (${savedB.bytes - savedA.bytes >= 0 ? '+' : ''}${savedB.bytes - savedA.bytes})`,
      );
    }
    if (left === right) {
      same += 1;
      continue;
    }
    different += 1;
    lines.push(`${file}: differs`, ...firstDifferences(left, right, show));
  }
  const listed = (/** @type {typeof before} */ build, /** @type {(t: string) => string} */ n) =>
    new Set(build.files.map((file) => n(`/${file}`)));
  const filesA = listed(before, normaliseAssets);
  const filesB = listed(after, normaliseAssets);
  const onlyA = [...filesA].filter((file) => !filesB.has(file));
  const onlyB = [...filesB].filter((file) => !filesA.has(file));
  if (onlyA.length > 0) lines.push(`files only in before: ${onlyA.join(', ')}`);
  if (onlyB.length > 0) lines.push(`files only in after: ${onlyB.join(', ')}`);
  lines.push(
    `${same + different} text files compared: ${same} identical after normalising, ${different} different; ` +
      `${renames.size} CSS module classes renamed; ${before.files.length} -> ${after.files.length} files`,
  );
  return {lines, same: different === 0 && onlyA.length === 0 && onlyB.length === 0};
}

/**
 * @param {readonly string[]} args
 * @param {{log: (line: string) => void, error: (line: string) => void}} out
 */
export function main(args, out = {log: console.log, error: console.error}) {
  const showAt = args.indexOf('--show');
  const show = showAt === -1 ? 3 : Number(args[showAt + 1]);
  const dirs = args.filter(
    (arg, i) => !arg.startsWith('--') && (showAt === -1 || i !== showAt + 1),
  );
  if (dirs.length !== 2 || !Number.isInteger(show) || show < 1) {
    out.error('usage: node scripts/compare-builds.mjs <before-build> <after-build> [--show N]');
    return 2;
  }
  for (const dir of dirs) {
    if (!statSync(dir, {throwIfNoEntry: false})?.isDirectory()) {
      out.error(`compare-builds: ${dir} is not a directory`);
      return 2;
    }
  }
  const {lines, same} = compareBuilds(dirs[0], dirs[1], {show});
  for (const line of lines) out.log(line);
  return same ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
