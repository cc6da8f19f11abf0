/**
 * Builds the API reference before Docusaurus reads the docs: installs the declarations if
 * needed (./install.ts), extracts the model (./extract.ts; cached in
 * `node_modules/.cache/api-reference/`, keyed by the samples' lock file and the extractor's
 * source, so `npm start` and later builds skip the compiler), scans the guide pages
 * (./docsScan.ts) and writes `docs/api/*.md` (./pages.ts), touching only files whose content
 * changed (the dev server watches that folder). Node-only.
 */
import {createHash} from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import {dirname, join} from 'node:path';
import {modelFormat, type ApiModel} from '../model';
import {apiRoute} from '../packages';
import {scanGuides} from './docsScan';
import {extractModel} from './extract';
import {ensureDeclarations} from './install';
import {referencePages} from './pages';

export interface GenerateOptions {
  readonly siteDir: string;
  readonly log?: (line: string) => void;
}

export interface Generated {
  readonly model: ApiModel;
  /** Pages written (changed), of all. */
  readonly written: number;
  readonly pages: number;
  readonly cached: boolean;
  readonly milliseconds: number;
}

/** The files whose content decides the model: the lock file and the extractor. */
function cacheKey(siteDir: string): string {
  const hash = createHash('sha256');
  hash.update(String(modelFormat));
  hash.update(readFileSync(join(siteDir, 'tools', 'samples', 'package-lock.json')));
  for (const file of ['node/extract.ts', 'model.ts', 'packages.ts']) {
    hash.update(readFileSync(join(__dirname, '..', file)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** The model, from the cache or extracted (and cached). */
export function loadModel(
  siteDir: string,
  log: (line: string) => void,
): {model: ApiModel; cached: boolean} {
  const samplesDir = join(siteDir, 'tools', 'samples');
  const cacheDir = join(siteDir, 'node_modules', '.cache', 'api-reference');
  const cacheFile = join(cacheDir, `model-${cacheKey(siteDir)}.json`);
  if (existsSync(cacheFile) && existsSync(join(samplesDir, 'node_modules'))) {
    const model = JSON.parse(readFileSync(cacheFile, 'utf8')) as ApiModel;
    if (model.format === modelFormat) return {model, cached: true};
  }
  ensureDeclarations(samplesDir, log);
  const model = extractModel(samplesDir);
  mkdirSync(cacheDir, {recursive: true});
  for (const old of readdirSync(cacheDir)) rmSync(join(cacheDir, old), {force: true});
  writeFileSync(cacheFile, JSON.stringify(model));
  return {model, cached: false};
}

/** What the guide pages are now: their paths, sizes and modification times. */
function guidesSignature(docsDir: string): string {
  return readdirSync(docsDir, {recursive: true, encoding: 'utf8'})
    .filter((file) => /\.mdx?$/.test(file) && !file.startsWith(`${apiRoute}/`))
    .sort()
    .map((file) => {
      const info = statSync(join(docsDir, file));
      return `${file}:${info.size}:${info.mtimeMs}`;
    })
    .join('\n');
}

/**
 * The last result in this process. Docusaurus loads the site config more than once per command
 * (each load writes the pages): the second load finds the guides and the model unchanged.
 */
const memo = globalThis as {__apiReference?: {key: string; result: Generated}};

/** Writes `docs/api/*.md`; removes pages of packages no longer covered. */
export function generateReference({siteDir, log = console.log}: GenerateOptions): Generated {
  const started = Date.now();
  const docsDir = join(siteDir, 'docs');
  const key = `${siteDir}\n${cacheKey(siteDir)}\n${guidesSignature(docsDir)}`;
  const previous = memo.__apiReference;
  if (previous?.key === key && existsSync(join(docsDir, apiRoute))) {
    return {...previous.result, written: 0, cached: true, milliseconds: Date.now() - started};
  }
  const {model, cached} = loadModel(siteDir, log);
  const pages = referencePages(model, {guides: scanGuides(docsDir)});
  let written = 0;
  for (const [path, content] of pages) {
    const file = join(docsDir, path);
    if (existsSync(file) && readFileSync(file, 'utf8') === content) continue;
    mkdirSync(dirname(file), {recursive: true});
    writeFileSync(file, content);
    written += 1;
  }
  const apiDir = join(docsDir, apiRoute);
  for (const name of readdirSync(apiDir)) {
    if (!pages.has(`${apiRoute}/${name}`))
      rmSync(join(apiDir, name), {recursive: true, force: true});
  }
  const result = {model, written, pages: pages.size, cached, milliseconds: Date.now() - started};
  memo.__apiReference = {key, result};
  return result;
}
