// @ts-check
/**
 * The virtual project of a page: every TypeScript half with a `@@filename(name)` becomes the
 * file `name.ts` (path segments kept), so that the samples of a page import each other the way a
 * reader's files would. When a page shows the same file several times, an import resolves,
 * among the versions that export the names it imports, to the one shown last before the
 * importing sample (or the first one after it). A relative import that no sample provides gets
 * a generated stub that exports the imported names as `any` (./modules.mjs).
 */
import {posix} from 'node:path';
import {fragmentReading} from './samples.mjs';
import {exportsOf, importsOf, isRelative, moduleKey, stubCode} from './modules.mjs';

/**
 * @typedef {import('./types').Sample} Sample
 * @typedef {import('./types').ProjectFile} ProjectFile
 * @typedef {import('./types').Project} Project
 * @typedef {import('./types').Needs} Needs
 */

/**
 * Builds the virtual project of a page: every TypeScript half with a file
 * name marker is the file `<name>.ts` under `projectRoot` (a later version of
 * the same file gets a distinct path), and a relative import that no sample
 * provides resolves to a stub under its own name.
 * @param {readonly Sample[]} samples the page's samples, in page order
 * @param {string} projectRoot absolute posix directory of the project
 * @returns {Project}
 */
export function buildProject(samples, projectRoot) {
  const base = projectRoot.replace(/\\/g, '/').replace(/\/$/, '');
  /** @type {ProjectFile[]} */
  const files = [];
  /** @type {Set<string>} */
  const taken = new Set();
  /** Versions of each module that can be imported, in page order. @type {Map<string, ProjectFile[]>} */
  const versions = new Map();
  for (const sample of samples) {
    if (sample.lang !== 'ts' || sample.filename === null) {
      continue;
    }
    const key = moduleKey(sample.filename);
    let path = posix.normalize(`${base}/${key}.ts`);
    for (let n = 2; taken.has(path); n += 1) {
      path = posix.normalize(`${base}/${key}.~${n}.ts`);
    }
    taken.add(path);
    const {code, fragmentAt} = fragmentReading(sample.code);
    /** @type {ProjectFile} */
    const file = {sample, index: files.length, key, path, code, fragmentAt};
    files.push(file);
    if (fragmentAt === null) {
      versions.set(key, [...(versions.get(key) ?? []), file]);
    }
  }
  const byPath = new Map(files.map((file) => [file.path, file]));
  const importsByFile = new Map(files.map((file) => [file, importsOf(file.code)]));
  /** @type {Map<ProjectFile, Set<string> | null>} */
  const exportsByFile = new Map();
  /** @param {ProjectFile} file */
  const exported = (file) => {
    if (!exportsByFile.has(file)) {
      exportsByFile.set(file, exportsOf(file.code));
    }
    return exportsByFile.get(file) ?? null;
  };

  /**
   * The sample version of `key` an import from `from` sees: among the
   * versions that export what the import needs (all of them if none does),
   * the last one shown before `from`, else the first one after it.
   * @param {string} key
   * @param {ProjectFile} from
   * @param {Needs | undefined} need
   */
  const versionFor = (key, from, need) => {
    const list = versions.get(key);
    if (!list) {
      return null;
    }
    const provides = list.filter((file) => {
      const names = exported(file);
      return (
        names === null ||
        need === undefined ||
        ([...need.names].every((name) => names.has(name)) &&
          (!need.default || names.has('default')))
      );
    });
    const usable = provides.length > 0 ? provides : list;
    const before = usable.filter((file) => file.index < from.index);
    return before.length > 0 ? before[before.length - 1] : usable[0];
  };
  /** @param {string} key */
  const candidates = (key) => [key, `${key}/index`];

  /** Stubs: key -> needs, then path -> code. @type {Map<string, Needs>} */
  const stubNeeds = new Map();
  /** @type {Map<string, string>} */
  const stubPaths = new Map();
  for (const file of files) {
    for (const [specifier, need] of importsByFile.get(file) ?? []) {
      if (!isRelative(specifier)) {
        continue;
      }
      const key = moduleKey(posix.join(posix.dirname(file.key), specifier));
      if (candidates(key).some((candidate) => versions.has(candidate))) {
        continue;
      }
      const merged = stubNeeds.get(key) ?? {
        names: new Set(),
        default: false,
        implemented: new Set(),
      };
      need.names.forEach((name) => merged.names.add(name));
      need.implemented.forEach((name) => merged.implemented.add(name));
      merged.default ||= need.default;
      stubNeeds.set(key, merged);
    }
  }
  /** @type {Map<string, string>} */
  const stubs = new Map();
  for (const [key, need] of stubNeeds) {
    let path = posix.normalize(`${base}/${key}.ts`);
    for (let n = 2; taken.has(path); n += 1) {
      path = posix.normalize(`${base}/${key}.~stub${n}.ts`);
    }
    taken.add(path);
    stubPaths.set(key, path);
    stubs.set(path, stubCode(need));
  }

  return {
    root: base,
    files,
    stubs,
    resolve(specifier, containingFile) {
      const from = byPath.get(posix.normalize(containingFile.replace(/\\/g, '/')));
      if (!from || !isRelative(specifier)) {
        return null;
      }
      const key = moduleKey(posix.join(posix.dirname(from.key), specifier));
      for (const candidate of candidates(key)) {
        const version = versionFor(candidate, from, importsByFile.get(from)?.get(specifier));
        if (version) {
          return version.path;
        }
      }
      return stubPaths.get(key) ?? null;
    },
  };
}
