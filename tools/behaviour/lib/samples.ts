/**
 * Runs a page's own samples. `samples(page)` writes the TypeScript halves of
 * the page's `@@filename(...)` fences into a fresh folder under
 * `tools/behaviour/.run/`, compiles each with TypeScript 4.9 (decorators and
 * their metadata, CommonJS, as a Nest 8 project compiles), and `require()`s
 * them with the NestJS 8.4.7 packages of `tools/behaviour/node_modules`.
 *
 * A page often shows one file several times as it grows (`app.module` with
 * one import, then with two). By default the last version on the page is used;
 * `under: 'heading-id'` takes, for every file, the last version at or before
 * the end of that section (or the first after it, for files it has not shown
 * yet); `pick: {'app.module': 2}` takes the second fence of that file.
 *
 * Files are written flat, by base name, so that imports between them resolve by name; a page
 * that shows `audio/audio.processor` and `audio.processor` gets one file, the one written last
 * (name the version you need with `pick`, or compile it with `compileModule()`).
 *
 * `edit` adapts a file to the test bench (a broker's port, a path) with
 * visible text replacements that must match: a replacement that finds nothing
 * fails, so a page that changes its sample fails its test instead of being
 * silently bypassed. `files` adds files the page does not show (a `main.ts`).
 */
import Module, {createRequire} from 'node:module';
import {mkdirSync, writeFileSync, existsSync, rmSync} from 'node:fs';
import {join, dirname, basename, resolve, sep} from 'node:path';
import {readPage, repoRoot, type Fence} from './pages';

const behaviourRoot = resolve(__dirname, '..');
const runRoot = join(behaviourRoot, '.run');
const requireHere = createRequire(join(behaviourRoot, 'package.json'));
const ts = requireHere('typescript') as typeof import('typescript');

export type Edit = [search: string | RegExp, replacement: string];

export interface SampleOptions {
  under?: string;
  pick?: Record<string, number>;
  edit?: Record<string, Edit[]>;
  files?: Record<string, string>;
  /** Use the JavaScript halves instead (Babel style; compiled with TypeScript's decorators, which read them the same way). */
  lang?: 'ts' | 'js';
}

export interface SampleSet {
  dir: string;
  /** The source as written (after edits) for each file name. */
  sources: Map<string, string>;
  require<T = Record<string, any>>(filename: string): T;
}

let counter = 0;
let hooked = false;

/** Relative imports between a page's samples name folders the page does not show (`./cats/cats.service`); they resolve by file name within the set. */
function hookResolution(): void {
  if (hooked) return;
  hooked = true;
  const original = (Module as any)._resolveFilename;
  (Module as any)._resolveFilename = function (request: string, parent: any, ...rest: unknown[]) {
    try {
      return original.call(this, request, parent, ...rest);
    } catch (error) {
      const from: string | undefined = parent?.filename;
      if (from && from.startsWith(runRoot + sep) && request.startsWith('.')) {
        const setDir = join(runRoot, from.slice(runRoot.length + 1).split(sep)[0]);
        const candidate = join(setDir, `${basename(request)}.js`);
        if (existsSync(candidate)) return candidate;
      }
      throw error;
    }
  };
}

function chooseFences(
  fences: Fence[],
  pagePath: string,
  options: SampleOptions,
  lang: 'ts' | 'js',
): Map<string, Fence> {
  const byName = new Map<string, Fence[]>();
  for (const fence of fences) {
    if (!fence.filename || !(lang === 'ts' ? fence.ts : fence.js)) continue;
    const list = byName.get(fence.filename) ?? [];
    list.push(fence);
    byName.set(fence.filename, list);
  }
  let limit = Infinity;
  if (options.under) {
    const page = readPage(pagePath);
    const start = page.headings.get(options.under);
    if (start === undefined)
      throw new Error(`behaviour: ${pagePath} has no heading #${options.under}`);
    // The section ends at the next heading of the same or a higher level.
    const later = [...page.headings.values()].filter((line) => line > start).sort((a, b) => a - b);
    limit = later.length ? later[0] : Infinity;
    // Sub-sections belong to the section: extend to the next heading that is not deeper.
    limit = sectionEnd(pagePath, start) ?? limit;
  }
  const chosen = new Map<string, Fence>();
  for (const [name, list] of byName) {
    const nth = options.pick?.[name];
    if (nth !== undefined) {
      const fence = list[nth - 1];
      if (!fence)
        throw new Error(`behaviour: ${pagePath} shows ${name} ${list.length} time(s), not ${nth}`);
      chosen.set(name, fence);
      continue;
    }
    const before = list.filter((fence) => fence.line < limit);
    chosen.set(name, before.length ? before[before.length - 1] : list[0]);
  }
  return chosen;
}

import {readFileSync} from 'node:fs';
function sectionEnd(pagePath: string, start: number): number | null {
  const lines = readFileSync(join(repoRoot, pagePath), 'utf8').split('\n');
  const depth = (text: string) => /^(#{1,6})\s/.exec(text)?.[1].length ?? 0;
  const own = depth(lines[start - 1] ?? '');
  let inFence = false;
  for (let i = start; i < lines.length; i += 1) {
    if (/^\s*(`{3,}|~{3,})/.test(lines[i])) inFence = !inFence;
    if (inFence) continue;
    const d = depth(lines[i]);
    if (d > 0 && d <= own) return i + 1;
  }
  return null;
}

function compile(source: string, fileName: string): string {
  const result = ts.transpileModule(source, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2019,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      esModuleInterop: true,
      allowJs: true,
      sourceMap: false,
      inlineSourceMap: true,
      inlineSources: true,
    },
  });
  const errors = (result.diagnostics ?? []).filter(
    (d) => d.category === ts.DiagnosticCategory.Error,
  );
  if (errors.length) {
    throw new Error(
      `behaviour: ${fileName} does not compile: ${ts.flattenDiagnosticMessageText(errors[0].messageText, '\n')}`,
    );
  }
  return result.outputText;
}

export function applyEdits(name: string, source: string, edits: Edit[] = []): string {
  let out = source;
  for (const [search, replacement] of edits) {
    const found = typeof search === 'string' ? out.includes(search) : search.test(out);
    if (!found) {
      throw new Error(
        `behaviour: the edit ${String(search)} finds nothing in ${name}: the page's sample changed`,
      );
    }
    out =
      typeof search === 'string'
        ? out.split(search).join(replacement)
        : out.replace(search, replacement);
  }
  return out;
}

/** The page's samples, compiled into a fresh folder, ready to `require()`. */
export function samples(pagePath: string, options: SampleOptions = {}): SampleSet {
  hookResolution();
  const page = readPage(pagePath);
  const lang = options.lang ?? 'ts';
  const chosen = chooseFences(page.fences, pagePath, options, lang);
  counter += 1;
  const slug = pagePath
    .replace(/^docs\//, '')
    .replace(/\.mdx?$/, '')
    .replace(/[^\w]+/g, '-');
  const dir = join(runRoot, `${slug}-${process.pid}-${counter}`);
  rmSync(dir, {recursive: true, force: true});
  mkdirSync(dir, {recursive: true});
  const sources = new Map<string, string>();
  for (const name of Object.keys(options.edit ?? {})) {
    if (!chosen.has(name) && !(options.files && name in options.files)) {
      throw new Error(
        `behaviour: ${pagePath} shows no file ${name} to edit (files: ${[...chosen.keys()].join(', ')})`,
      );
    }
  }
  const all = new Map<string, string>();
  for (const [name, fence] of chosen) all.set(name, (lang === 'ts' ? fence.ts : fence.js) ?? '');
  for (const [name, code] of Object.entries(options.files ?? {})) all.set(name, code);
  for (const [name, code] of all) {
    const source = applyEdits(name, code, options.edit?.[name]);
    sources.set(name, source);
    const flat = basename(name);
    const target = join(dir, `${flat}.js`);
    mkdirSync(dirname(target), {recursive: true});
    writeFileSync(join(dir, `${flat}.${lang}`), source);
    // A declaration file (`session.d`) only describes types: nothing to run.
    if (!name.endsWith('.d')) writeFileSync(target, compile(source, `${pagePath}/${name}.${lang}`));
  }
  const requireSet = createRequire(join(dir, 'index.js'));
  return {
    dir,
    sources,
    require<T>(filename: string): T {
      if (!sources.has(filename)) {
        throw new Error(
          `behaviour: ${pagePath} shows no file ${filename} (files: ${[...sources.keys()].join(', ')})`,
        );
      }
      return requireSet(`./${basename(filename)}.js`) as T;
    },
  };
}

/**
 * A fence of a page that has no file name (a fragment): the first fence in
 * section `under` whose code contains `contains`.
 */
export function fragment(pagePath: string, under: string, contains: string): Fence {
  const page = readPage(pagePath);
  const fence =
    page.fences.find((f) => f.section === under && f.value.includes(contains)) ??
    (() => {
      const start = page.headings.get(under);
      if (start === undefined) throw new Error(`behaviour: ${pagePath} has no heading #${under}`);
      const end = sectionEnd(pagePath, start) ?? Infinity;
      return page.fences.find((f) => f.line > start && f.line < end && f.value.includes(contains));
    })();
  if (!fence)
    throw new Error(
      `behaviour: ${pagePath}#${under} shows no fence containing ${JSON.stringify(contains)}`,
    );
  return fence;
}

/** Compiles and loads a piece of TypeScript written by a test or taken from a fragment, with the NestJS 8 packages. */
export function compileModule<T = Record<string, any>>(source: string, name = 'inline'): T {
  hookResolution();
  counter += 1;
  const dir = join(runRoot, `inline-${process.pid}-${counter}`);
  mkdirSync(dir, {recursive: true});
  const file = join(dir, `${name}.js`);
  writeFileSync(join(dir, `${name}.ts`), source);
  writeFileSync(file, compile(source, `${name}.ts`));
  return createRequire(file)(file) as T;
}
