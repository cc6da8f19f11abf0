#!/usr/bin/env node
// @ts-check
/*
 * Install and start commands that give a NestJS 8.4.7 project today.
 * - Every `npm i` / `npm install` / `npm add` command in docs/ (in a code
 *   block or in inline code) must name each package with a version range, and where the package is
 * part of a pinned set (tools/samples, which the samples type-check against,
 * or tools/behaviour, which the behaviour suite runs), the range must admit
 * the pinned version. The pinned sets install with npm's normal peer rules
 * (no legacy-peer-deps), so a range that admits them installs without peer
 * conflicts into a Nest 8 project. Readers broke production installing an
 * unpinned transport package (docs.nestjs.com #2521): npm resolves a bare name
 * to today's release, built for Nest 10 or 11.
 * - Every `git clone` is followed, in the same code block, by a `git checkout`
 *   of a commit (a starter's default branch moved to Nest 9, 10 and 11), or
 *   names the commit through `degit owner/repo#<commit>`.
 * - Every `npx <package>` names a version, unless it runs a binary the project
 *   already has at a pinned version: one of the generated Nest 8 project's
 *   devDependencies, or a package the same page installs with a range. A bare
 *   `npx` of anything else fetches today's release.
 *
 *   node scripts/check-installs.mjs [files or folders]   (default docs/)
 */
import {readFileSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import semver from 'semver';
import {writtenMarkdownFiles} from '../src/features/markdown/node/files.mjs';
import {located} from '../src/features/markdown/location.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const pinnedSets = ['tools/samples', 'tools/behaviour'];

/**
 * Install commands that name a version outside the pinned sets on purpose, with the reason.
 * @type {{file: string, name: string, reason: string}[]}
 */
export const deliberate = [
  {
    file: 'docs/graphql/cli-plugin.md',
    name: 'typescript',
    reason:
      'the @nestjs/graphql 9 plugin needs TypeScript below 4.8 (the page says so); the sets pin 4.9 for the samples',
  },
];

/**
 * The versions each pinned set installs: its own dependencies and every
 * package of its lock file (a transitive package is pinned too).
 * @param {string} [base]
 * @returns {Map<string, Set<string>>}
 */
export function pinnedVersions(base = root) {
  /** @type {Map<string, Set<string>>} */
  const versions = new Map();
  for (const set of pinnedSets) {
    const lock = JSON.parse(readFileSync(join(base, set, 'package-lock.json'), 'utf8'));
    for (const [path, entry] of Object.entries(lock.packages ?? {})) {
      if (!path.startsWith('node_modules/') || !entry.version) continue;
      const name =
        entry.name && !entry.name.includes('@npm:') && path.endsWith(`node_modules/${entry.name}`)
          ? entry.name
          : path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
      // An alias (redis4 → npm:redis@4.1.0) pins the aliased package.
      const real =
        /** @type {{version: string, resolved?: string}} */ (entry).resolved?.match(
          /\/((?:@[^/]+\/)?[^/]+)\/-\//,
        )?.[1] ?? name;
      const list = versions.get(real) ?? new Set();
      list.add(entry.version);
      versions.set(real, list);
    }
  }
  return versions;
}

/**
 * A package token of an install command: `@nestjs/core@^8` → name and range.
 * @param {string} token
 * @returns {{name: string, range: string | null}}
 */
export function parseSpec(token) {
  const at = token.indexOf('@', token.startsWith('@') ? 1 : 0);
  if (at < 0) return {name: token, range: null};
  return {name: token.slice(0, at), range: token.slice(at + 1)};
}

/**
 * The install commands of a Markdown text, with their 1-based line.
 * @param {string} text
 * @returns {{line: number, command: string, packages: string[]}[]}
 */
export function installCommands(text) {
  /** @type {{line: number, command: string, packages: string[]}[]} */
  const found = [];
  text.split('\n').forEach((content, index) => {
    // Inline code (`npm i -D @types/express`) and whole lines in code blocks.
    const candidates = [...content.matchAll(/`([^`]*\bnpm (?:i|install|add)\b[^`]*)`/g)].map(
      (m) => m[1],
    );
    if (candidates.length === 0 && /^\s*(?:\$\s*)?npm (?:i|install|add)\b/.test(content))
      candidates.push(content.trim());
    for (const candidate of candidates) {
      const command = candidate.replace(/^\$\s*/, '').split(/\s*(?:&&|;|\|)\s*/)[0];
      const words = command.split(/\s+/).slice(2);
      const packages = words.filter(
        (word) => word && !word.startsWith('-') && !word.startsWith('#'),
      );
      found.push({line: index + 1, command, packages});
    }
  });
  return found;
}

/**
 * Problems of one page's install commands.
 * @param {string} text
 * @param {string} file
 * @param {Map<string, Set<string>>} pinned
 * @returns {string[]} `file:line: message`
 */
export function checkInstalls(text, file, pinned) {
  /** @type {string[]} */
  const problems = [];
  for (const {line, command, packages} of installCommands(text)) {
    // `npm install -g @nestjs/cli@8` is a global tool: it still needs its line.
    for (const token of packages) {
      const {name, range} = parseSpec(token);
      if (!range) {
        problems.push(
          located(
            file,
            line,
            `\`${command}\` installs ${name} without a version: name the line that works with Nest 8 (${name}@^x)`,
          ),
        );
        continue;
      }
      if (!semver.validRange(range)) {
        problems.push(
          `${file}:${line}: ${name}@${range} is not a version range (a tag such as latest moves past Nest 8)`,
        );
        continue;
      }
      const versions = pinned.get(name);
      const allowed = deliberate.some((entry) => entry.file === file && entry.name === name);
      if (
        versions &&
        !allowed &&
        ![...versions].some((version) => semver.satisfies(version, range))
      ) {
        problems.push(
          located(
            file,
            line,
            `${name}@${range} does not admit the pinned ${[...versions].join(' / ')} (${pinnedSets.join(', ')})`,
          ),
        );
      }
    }
  }
  return problems;
}

/**
 * Binaries that a project made by `nest new` (@nestjs/schematics 8, its
 * application template's package.json) has locally, by the package that
 * provides them: `npx nest` runs the project's @nestjs/cli 8.
 */
export const projectBinaries = new Map([
  ['nest', '@nestjs/cli'],
  ['jest', 'jest'],
  ['ts-node', 'ts-node'],
  ['tsc', 'typescript'],
  ['eslint', 'eslint'],
  ['prettier', 'prettier'],
  ['rimraf', 'rimraf'],
]);

/** Binaries whose name is not their package's, for packages a page installs itself. */
const binaryPackages = new Map([['tsc', 'typescript']]);

/**
 * Lines of code blocks (with the block's index) and of inline code.
 * @param {string} text
 * @returns {{line: number, content: string, block: number | null}[]}
 */
function codeLines(text) {
  /** @type {{line: number, content: string, block: number | null}[]} */
  const lines = [];
  let block = 0;
  let inBlock = false;
  text.split('\n').forEach((content, index) => {
    if (/^\s*(`{3,}|~{3,})/.test(content)) {
      inBlock = !inBlock;
      if (inBlock) block += 1;
      return;
    }
    if (inBlock) lines.push({line: index + 1, content, block});
    else
      for (const match of content.matchAll(/`([^`]+)`/g))
        lines.push({line: index + 1, content: match[1], block: null});
  });
  return lines;
}

/**
 * `git clone` and `npx` commands that do not pin what they fetch.
 * @param {string} text
 * @param {string} file
 * @returns {string[]} `file:line: message`
 */
export function checkStartCommands(text, file) {
  /** @type {string[]} */
  const problems = [];
  const lines = codeLines(text);
  const installed = new Set(
    installCommands(text).flatMap(({packages}) =>
      packages.map(parseSpec).flatMap(({name, range}) => (range ? [name] : [])),
    ),
  );
  for (const [i, {line, content, block}] of lines.entries()) {
    for (const command of content.split(/\s*(?:&&|;|\|)\s*/)) {
      const words = command
        .trim()
        .replace(/^\$\s*/, '')
        .split(/\s+/);
      if (words[0] === 'git' && words[1] === 'clone') {
        const checkout =
          block !== null &&
          lines
            .slice(i)
            .some(
              (later) =>
                later.block === block && /\bgit checkout [0-9a-f]{7,40}\b/.test(later.content),
            );
        if (!checkout)
          problems.push(
            located(
              file,
              line,
              `\`${command.trim()}\` clones today's default branch: add \`git checkout <commit>\` of the last Nest 8 commit in the same block`,
            ),
          );
      }
      if (words[0] === 'npx') {
        const target = words.slice(1).find((word) => !word.startsWith('-'));
        if (!target) continue;
        const {name, range} = parseSpec(target);
        if (name === 'degit' || /^degit$/.test(name)) {
          const repo = words.slice(words.indexOf(target) + 1).find((w) => !w.startsWith('-'));
          if (!range || !repo || !/#[0-9a-f]{7,40}$/.test(repo))
            problems.push(
              located(
                file,
                line,
                `\`${command.trim()}\`: name degit's version and the commit to copy (degit@2 owner/repo#<commit>)`,
              ),
            );
          continue;
        }
        if (range) continue;
        const fromProject = projectBinaries.has(name);
        const fromPage = installed.has(binaryPackages.get(name) ?? name);
        if (!fromProject && !fromPage)
          problems.push(
            located(
              file,
              line,
              `\`${command.trim()}\` fetches today's ${name}: name a version (npx ${name}@x), or install it on the page with a range first`,
            ),
          );
      }
    }
  }
  return problems;
}

/**
 * @param {readonly string[]} args
 * @returns {{problems: string[], commands: number}}
 */
export function checkDocs(args = []) {
  const pinned = pinnedVersions();
  const targets = args.length ? args.map((arg) => resolve(arg)) : [join(root, 'docs')];
  /** @type {string[]} */
  const problems = [];
  let commands = 0;
  for (const file of targets.flatMap((target) =>
    writtenMarkdownFiles(target, join(root, 'docs')),
  )) {
    const text = readFileSync(file, 'utf8');
    commands += installCommands(text).length;
    problems.push(...checkInstalls(text, relative(root, file), pinned));
    problems.push(...checkStartCommands(text, relative(root, file)));
  }
  return {problems, commands};
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const {problems, commands} = checkDocs(process.argv.slice(2));
  if (problems.length) {
    console.error(problems.join('\n'));
    console.error(`check-installs: ${problems.length} problem(s) in ${commands} install commands`);
    process.exit(1);
  }
  console.log(`check-installs: ${commands} install commands name Nest 8 versions`);
}
