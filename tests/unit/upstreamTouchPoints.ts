/**
 * Where the site's code reaches into Docusaurus', React's or another package's internals: what
 * tests/unit/upstream.test.ts compares with the index of UPSTREAM.md. Read from the source text
 * (comments left out), by these rules:
 *
 * - `internal`: an import of a package's `/internal` entry (`@docusaurus/theme-common/internal`);
 * - `lib`: an import of a file under a package's `lib/` (a built file or CSS module), or a path
 *   into a package's `lib` folder built in Node (`'lib'`, `'lib/...'` as a path segment);
 * - `generated`: an import of `@generated/...` (Docusaurus' generated files), or a generated file
 *   swapped for a copy (`aliasToCopy`);
 * - `theme-original`: a wrapper's import of the component it wraps (`@theme-original/...`,
 *   `@theme-init/...`);
 * - `global`: Docusaurus' browser globals (`window.docusaurus...`) and its app element
 *   (`__docusaurus`);
 * - `class`: a theme CSS module's class name matched by its stem (`[class*='buttonGroup']`), in
 *   code or in a stylesheet, since the hash after it changes with every release;
 * - `constant`: a copy of a value the theme does not export (the 996 px breakpoint).
 */
import {readFileSync, readdirSync} from 'node:fs';
import {join, relative} from 'node:path';

export const root = join(__dirname, '..', '..');

export interface TouchPoint {
  /** The file, relative to the repository (`src/features/code/plugin.ts`). */
  readonly file: string;
  /** What it reaches, as the index writes it (`@docusaurus/theme-common/internal`, `lib/`, ...). */
  readonly what: string;
}

const codeExtensions = /\.(?:ts|tsx|js|mjs|cjs)$/;
const styleExtensions = /\.css$/;

/** src/ (tests and declaration files left out), sidebars.ts and the site config. */
export function sourceFiles(): string[] {
  const files = ['sidebars.ts', 'docusaurus.config.ts'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), {withFileTypes: true})) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.test\.tsx?$|\.d\.ts$/.test(entry.name)) continue;
      else if (codeExtensions.test(entry.name) || styleExtensions.test(entry.name))
        files.push(path);
    }
  };
  walk('src');
  return files.sort();
}

/** The text without comments (`//` only where a comment can start, so URLs stay). */
export function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[\s;{}(),])\/\/.*$/gm, '$1');
}

const specifier = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire(?:\.resolve)?\s*\(\s*)['"]([^'"]+)['"]/g;

/** The touch points of one file's text. */
export function touchPointsOf(file: string, source: string): TouchPoint[] {
  const text = withoutComments(source);
  const found = new Set<string>();
  if (codeExtensions.test(file)) {
    for (const [, spec = ''] of text.matchAll(specifier)) {
      if (/^@theme-(?:original|init)\//.test(spec)) found.add(spec);
      else if (spec.startsWith('@generated/')) found.add(spec);
      else if (/^[@\w][^:]*\/internal$/.test(spec)) found.add(spec);
      else if (/^[@\w][^:]*\/lib\//.test(spec)) found.add(spec);
    }
    if (/['"]lib(?:\/[^'"]*)?['"]/.test(text)) found.add('lib/');
    if (/\baliasToCopy\(/.test(text) && !/export function aliasToCopy/.test(text))
      found.add('@generated copy');
    for (const [global = ''] of text.matchAll(/\bwindow\.docusaurus\w*/g)) found.add(global);
    if (/__docusaurus\b/.test(text)) found.add('#__docusaurus');
    if (/(?<![\w.])996(?![\w.])/.test(text)) found.add('996 px');
  }
  for (const [, stem = ''] of text.matchAll(/\[class[*^]=\s*['"]?([A-Za-z][\w-]*?)_?['"]?\s*\]/g)) {
    found.add(`[class*='${stem}']`);
  }
  return [...found].sort().map((what) => ({file, what}));
}

/** Every touch point of the site's code. */
export function touchPoints(): TouchPoint[] {
  return sourceFiles().flatMap((file) =>
    touchPointsOf(relative(root, join(root, file)), readFileSync(join(root, file), 'utf8')),
  );
}
