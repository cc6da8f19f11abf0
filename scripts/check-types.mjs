// @ts-check
// Type-checks the code samples in the docs against NestJS 8 era packages.
//   node scripts/check-types.mjs [file-or-dir...]    (default: docs/)
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
import {existsSync, readFileSync, readdirSync, realpathSync, statSync} from 'node:fs';
import {createRequire} from 'node:module';
import {dirname, join, posix, relative, resolve, sep} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import ts from 'typescript';
import {markerLanguage, parseFence} from '../src/remark/markers.mjs';
import {findFences} from './check-samples.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const samplesDir = join(root, 'tools', 'samples');
export const allowListPath = join(samplesDir, 'allow-list.json');
/** The share of samples that must compile. */
export const requiredShare = 0.95;

/**
 * A TypeScript or JavaScript half of a marked fence. `line` is the page line
 * (1-based) of the half's first code line.
 * @typedef {{page: string, filename: string | null, lang: 'ts' | 'js', code: string, line: number}} Sample
 */

/**
 * A sample placed in the virtual project. `code` is what the compiler sees
 * (a fragment is wrapped); a compiler line `l` (0-based) is page line
 * `sample.line + l - (fragmentAt !== null && l > fragmentAt ? 1 : 0)`.
 * @typedef {{
 *   sample: Sample,
 *   index: number,
 *   key: string,
 *   path: string,
 *   code: string,
 *   fragmentAt: number | null,
 * }} ProjectFile
 */

/**
 * @typedef {{
 *   root: string,
 *   files: ProjectFile[],
 *   stubs: Map<string, string>,
 *   resolve: (specifier: string, containingFile: string) => string | null,
 * }} Project
 */

/** @typedef {{page: string, filename: string, reason: string}} AllowEntry */

/**
 * The TypeScript and JavaScript halves of the marked fences of a page, in
 * page order (the shared marker parser decides what a half is).
 * @param {string} markdown
 * @param {string} page
 * @returns {Sample[]}
 */
export function collectSamples(markdown, page) {
  /** @type {Sample[]} */
  const samples = [];
  for (const fence of findFences(markdown).fences) {
    if (!markerLanguage(fence.lang)) {
      continue;
    }
    const parsed = parseFence(fence.value, fence.lang);
    if (parsed.kind !== 'marked') {
      continue;
    }
    // The code starts on the line below the opening fence.
    const first = fence.line + 1;
    for (const lang of /** @type {const} */ (['ts', 'js'])) {
      const half = parsed[lang];
      if (half) {
        samples.push({
          page,
          filename: parsed.filename,
          lang,
          code: half.code,
          line: first + half.offset,
        });
      }
    }
  }
  return samples;
}

// ---------------------------------------------------------------------------
// Fragments

/** @param {string} code */
function parsesAsTypeScript(code) {
  const source = ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  // parseDiagnostics is internal API (check-samples.mjs uses it too).
  /** @type {any} */
  const internal = source;
  return (internal.parseDiagnostics ?? []).length === 0;
}

/**
 * The number of lines the leading imports (with blank and `//` lines among
 * them) take at the top of `lines`.
 * @param {readonly string[]} lines
 */
function importHeadLength(lines) {
  let end = 0;
  let i = 0;
  while (i < lines.length) {
    const text = lines[i].trim();
    if (text === '' || text.startsWith('//')) {
      i += 1;
      continue;
    }
    if (!/^import[\s{'"*]/.test(text)) {
      break;
    }
    while (i < lines.length && !/['"][^'"]*['"]\s*;?\s*$/.test(lines[i].trim())) {
      i += 1;
    }
    i += 1;
    end = i;
  }
  return Math.min(end, lines.length);
}

export const fragmentOpen = 'class __Fragment { [member: string]: any;';

/**
 * The code the compiler sees for a TypeScript half: the half itself when it
 * parses, else (a fragment of class members, with or without leading
 * imports) the half inside `class __Fragment {...}`. `fragmentAt` is the
 * 0-based line of the inserted class line, null when not wrapped.
 * @param {string} code
 * @returns {{code: string, fragmentAt: number | null}}
 */
export function fragmentReading(code) {
  if (parsesAsTypeScript(code)) {
    return {code, fragmentAt: null};
  }
  const lines = code.split('\n');
  const head = importHeadLength(lines);
  for (const split of head > 0 && head < lines.length ? [head, 0] : [0]) {
    const wrapped = [...lines.slice(0, split), fragmentOpen, ...lines.slice(split), '}'].join('\n');
    if (parsesAsTypeScript(wrapped)) {
      return {code: wrapped, fragmentAt: split};
    }
  }
  return {code, fragmentAt: null};
}

// ---------------------------------------------------------------------------
// The virtual project

/**
 * The module key (a normalized posix path without extension) of a filename
 * or a resolved relative specifier.
 * @param {string} name
 */
function moduleKey(name) {
  return posix.normalize(name.replace(/\\/g, '/')).replace(/\.(d\.ts|tsx?|jsx?|mjs|cjs)$/, '');
}

/** @param {string} specifier */
function isRelative(specifier) {
  return specifier === '.' || specifier === '..' || /^\.\.?\//.test(specifier);
}

/**
 * What a file needs from a module: the names it imports, whether it takes the
 * default export, and the names it uses in an `implements` clause.
 * @typedef {{names: Set<string>, default: boolean, implemented: Set<string>}} Needs
 */

/**
 * The relative (and other) module specifiers a piece of code imports, with
 * what it needs from each.
 * @param {string} code
 * @returns {Map<string, Needs>}
 */
export function importsOf(code) {
  const source = ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  /** @type {Map<string, Needs>} */
  const imports = new Map();
  /** @param {string} specifier */
  const needs = (specifier) => {
    let entry = imports.get(specifier);
    if (!entry) {
      entry = {names: new Set(), default: false, implemented: new Set()};
      imports.set(specifier, entry);
    }
    return entry;
  };
  /** Local names bound to a module namespace: local -> specifier. @type {Map<string, string>} */
  const namespaces = new Map();
  /** Local names bound to an imported name: local -> [specifier, name]. @type {Map<string, [string, string]>} */
  const locals = new Map();

  /** @param {import('typescript').Node} node */
  const specifierOf = (node) =>
    node && ts.isStringLiteralLike(node) ? node.text : /** @type {string | null} */ (null);

  /**
   * Names taken from a module value: destructured or read as properties.
   * @param {import('typescript').Node} use the dynamic import / require call
   * @param {string} specifier
   */
  const namesFromValue = (use, specifier) => {
    const entry = needs(specifier);
    let node = use;
    while (
      node.parent &&
      (ts.isAwaitExpression(node.parent) || ts.isParenthesizedExpression(node.parent))
    ) {
      node = node.parent;
    }
    const parent = node.parent;
    if (parent && ts.isVariableDeclaration(parent) && parent.initializer === node) {
      if (ts.isObjectBindingPattern(parent.name)) {
        for (const element of parent.name.elements) {
          const name = element.propertyName ?? element.name;
          if (ts.isIdentifier(name)) {
            entry.names.add(name.text);
          }
        }
      } else if (ts.isIdentifier(parent.name)) {
        namespaces.set(parent.name.text, specifier);
      }
    } else if (
      parent &&
      ts.isPropertyAccessExpression(parent) &&
      parent.name.text === 'then' &&
      ts.isCallExpression(parent.parent)
    ) {
      // import('./x').then((m) => m.X)
      const callback = parent.parent.arguments[0];
      if (callback && (ts.isArrowFunction(callback) || ts.isFunctionExpression(callback))) {
        const parameter = callback.parameters[0];
        if (parameter && ts.isIdentifier(parameter.name)) {
          const name = parameter.name.text;
          /** @param {import('typescript').Node} inner */
          const visit = (inner) => {
            if (
              ts.isPropertyAccessExpression(inner) &&
              ts.isIdentifier(inner.expression) &&
              inner.expression.text === name
            ) {
              entry.names.add(inner.name.text);
            }
            ts.forEachChild(inner, visit);
          };
          visit(callback.body);
        } else if (parameter && ts.isObjectBindingPattern(parameter.name)) {
          for (const element of parameter.name.elements) {
            const bound = element.propertyName ?? element.name;
            if (ts.isIdentifier(bound)) {
              entry.names.add(bound.text);
            }
          }
        }
      }
    } else if (parent && ts.isPropertyAccessExpression(parent) && parent.expression === node) {
      entry.names.add(parent.name.text);
    }
  };

  /** @param {import('typescript').Node} node */
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const specifier = specifierOf(node.moduleSpecifier);
      if (specifier !== null) {
        const entry = needs(specifier);
        const clause = node.importClause;
        if (clause?.name) {
          entry.default = true;
          locals.set(clause.name.text, [specifier, 'default']);
        }
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) {
          namespaces.set(bindings.name.text, specifier);
        } else if (bindings) {
          for (const element of bindings.elements) {
            const name = (element.propertyName ?? element.name).text;
            if (name === 'default') {
              entry.default = true;
            } else {
              entry.names.add(name);
            }
            locals.set(element.name.text, [specifier, name]);
          }
        }
      }
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const specifier = specifierOf(node.moduleSpecifier);
      if (specifier !== null) {
        const entry = needs(specifier);
        const clause = node.exportClause;
        if (clause && ts.isNamedExports(clause)) {
          for (const element of clause.elements) {
            const name = (element.propertyName ?? element.name).text;
            if (name === 'default') {
              entry.default = true;
            } else {
              entry.names.add(name);
            }
          }
        }
      }
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference)
    ) {
      const specifier = specifierOf(node.moduleReference.expression);
      if (specifier !== null) {
        needs(specifier);
        namespaces.set(node.name.text, specifier);
      }
    } else if (ts.isCallExpression(node)) {
      const isDynamicImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      const specifier = node.arguments.length === 1 ? specifierOf(node.arguments[0]) : null;
      if ((isDynamicImport || isRequire) && specifier !== null) {
        namesFromValue(node, specifier);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);

  // Namespace uses (`ns.X`, also in types: `ns.X`) and `implements` clauses.
  /** @param {import('typescript').Node} node */
  const uses = (node) => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const specifier = namespaces.get(node.expression.text);
      if (specifier !== undefined) {
        needs(specifier).names.add(node.name.text);
      }
    } else if (ts.isQualifiedName(node) && ts.isIdentifier(node.left)) {
      const specifier = namespaces.get(node.left.text);
      if (specifier !== undefined) {
        needs(specifier).names.add(node.right.text);
      }
    } else if (ts.isHeritageClause(node) && node.token === ts.SyntaxKind.ImplementsKeyword) {
      for (const type of node.types) {
        if (ts.isIdentifier(type.expression)) {
          const local = locals.get(type.expression.text);
          if (local && local[1] !== 'default') {
            needs(local[0]).implemented.add(local[1]);
          }
        }
      }
    }
    ts.forEachChild(node, uses);
  };
  uses(source);
  return imports;
}

/**
 * The names a module exports ('default' for a default export), or null when
 * it re-exports another module with `export *` (anything may come from it).
 * @param {string} code
 * @returns {Set<string> | null}
 */
export function exportsOf(code) {
  const source = ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  /** @type {Set<string>} */
  const names = new Set();
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (!clause) {
        return null;
      }
      if (ts.isNamedExports(clause)) {
        clause.elements.forEach((element) => names.add(element.name.text));
      } else {
        names.add(clause.name.text);
      }
      continue;
    }
    if (ts.isExportAssignment(statement)) {
      names.add('default');
      continue;
    }
    const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
    if (!modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) {
      continue;
    }
    if (modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword)) {
      names.add('default');
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) {
          names.add(declaration.name.text);
        }
      }
    } else if (
      (ts.isClassDeclaration(statement) ||
        ts.isFunctionDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement) ||
        ts.isModuleDeclaration(statement)) &&
      statement.name &&
      ts.isIdentifier(statement.name)
    ) {
      names.add(statement.name.text);
    }
  }
  return names;
}

/**
 * The code of a stub module that exports `needs`' names as `any` (values and
 * types alike; an interface for a name a class implements).
 * @param {Needs} needs
 */
export function stubCode(needs) {
  const lines = ['// Generated stub: no sample on the page provides this module.'];
  // Optional type parameters, so that `Name<T>` works as well as `Name`.
  const parameters = '<T1 = any, T2 = any, T3 = any, T4 = any>';
  for (const name of [...needs.names].sort()) {
    lines.push(`export declare const ${name}: any;`);
    lines.push(
      needs.implemented.has(name)
        ? `export interface ${name}${parameters} {}`
        : `export type ${name}${parameters} = any;`,
    );
  }
  if (needs.default) {
    lines.push(
      'declare const __default: any;',
      `type __default${parameters} = any;`,
      'export default __default;',
    );
  }
  if (lines.length === 1) {
    lines.push('export {};');
  }
  return lines.join('\n') + '\n';
}

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

// ---------------------------------------------------------------------------
// The allow-list

/**
 * Validates the parsed allow-list file.
 * @param {unknown} data
 * @returns {{entries: AllowEntry[], errors: string[]}}
 */
export function validateAllowList(data) {
  /** @type {AllowEntry[]} */
  const entries = [];
  /** @type {string[]} */
  const errors = [];
  if (!Array.isArray(data)) {
    return {entries, errors: ['the allow-list must be a JSON array of {page, filename, reason}']};
  }
  const seen = new Set();
  data.forEach((item, i) => {
    const where = `allow-list entry ${i + 1}`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      errors.push(`${where}: not an object`);
      return;
    }
    const {page, filename, reason, ...rest} = /** @type {Record<string, unknown>} */ (item);
    const unknown = Object.keys(rest);
    if (unknown.length > 0) {
      errors.push(`${where}: unknown key(s) ${unknown.join(', ')}`);
    }
    if (typeof page !== 'string' || page.trim() === '') {
      errors.push(`${where}: "page" must be a page path such as docs/controllers.md`);
      return;
    }
    if (typeof filename !== 'string' || filename.trim() === '') {
      errors.push(`${where} (${page}): "filename" must be the sample's @@filename name`);
      return;
    }
    if (typeof reason !== 'string' || reason.trim() === '') {
      errors.push(`${where} (${page} ${filename}): no reason: say in one line why it may fail`);
      return;
    }
    if (/[\r\n]/.test(reason)) {
      errors.push(`${where} (${page} ${filename}): the reason must be one line`);
      return;
    }
    const id = `${page}\0${filename}`;
    if (seen.has(id)) {
      errors.push(`${where} (${page} ${filename}): listed twice`);
      return;
    }
    seen.add(id);
    entries.push({page, filename, reason: reason.trim()});
  });
  return {entries, errors};
}

// ---------------------------------------------------------------------------
// JavaScript halves: names imported from @nestjs/* must exist at run time

/**
 * The names a JavaScript half imports from @nestjs/* packages, with the
 * 0-based line of each.
 * @param {string} code
 * @returns {{module: string, name: string, offset: number}[]}
 */
export function nestImportsOf(code) {
  const source = ts.createSourceFile('x.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  /** @type {{module: string, name: string, offset: number}[]} */
  const found = [];
  for (const statement of source.statements) {
    if (
      !ts.isImportDeclaration(statement) ||
      !ts.isStringLiteral(statement.moduleSpecifier) ||
      !statement.moduleSpecifier.text.startsWith('@nestjs/')
    ) {
      continue;
    }
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) {
      continue;
    }
    for (const element of bindings.elements) {
      const name = (element.propertyName ?? element.name).text;
      const offset = source.getLineAndCharacterOfPosition(element.getStart(source)).line;
      found.push({module: statement.moduleSpecifier.text, name, offset});
    }
  }
  return found;
}

/**
 * Failures of JavaScript halves that import a name a package does not export.
 * @param {readonly Sample[]} samples
 * @param {(module: string) => Set<string> | string} exportsOf the runtime
 *   export names of a module, or why they could not be read
 * @returns {{sample: Sample, line: number, message: string}[]}
 */
export function checkJavaScriptImports(samples, exportsOf) {
  /** @type {{sample: Sample, line: number, message: string}[]} */
  const failures = [];
  for (const sample of samples) {
    if (sample.lang !== 'js') {
      continue;
    }
    for (const {module, name, offset} of nestImportsOf(sample.code)) {
      const names = exportsOf(module);
      if (typeof names === 'string') {
        failures.push({sample, line: sample.line + offset, message: names});
      } else if (!names.has(name)) {
        failures.push({
          sample,
          line: sample.line + offset,
          message: `JavaScript: '${name}' is not exported by ${module} at run time`,
        });
      }
    }
  }
  return failures;
}

// ---------------------------------------------------------------------------
// Compiling

/**
 * @typedef {{sample: Sample, file: ProjectFile, errors: {line: number, message: string}[]}} SampleResult
 */

/**
 * The compiler, its options and the caches shared by the programs of a run.
 * @param {string} packagesDir the directory whose node_modules has the packages
 */
export function createCompiler(packagesDir) {
  const require = createRequire(join(packagesDir, 'package.json'));
  /** @type {typeof import('typescript')} */
  const tsc = require('typescript');
  /** @type {import('typescript').CompilerOptions} */
  const options = {
    strict: false,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    skipLibCheck: true,
    // As in the tsconfig.json that the Nest 8 CLI generates: the docs write
    // `import * as cookieParser from 'cookie-parser'`, which is right there
    // (and not callable under esModuleInterop).
    esModuleInterop: false,
    allowSyntheticDefaultImports: true,
    resolveJsonModule: true,
    target: tsc.ScriptTarget.ES2019,
    module: tsc.ModuleKind.CommonJS,
    moduleResolution: tsc.ModuleResolutionKind.NodeJs,
    lib: ['lib.es2020.d.ts', 'lib.dom.d.ts'],
    // Only tools/samples' @types, not those of the site around it.
    typeRoots: [join(packagesDir, 'node_modules', '@types')],
    noEmit: true,
  };
  /** Parsed library and package files, shared by every page. @type {Map<string, import('typescript').SourceFile | undefined>} */
  const sourceFiles = new Map();
  /** @type {Map<string, boolean>} */
  const fileExistsCache = new Map();
  /** @type {Map<string, boolean>} */
  const directoryExistsCache = new Map();
  /** @type {Map<string, string>} */
  const realpathCache = new Map();
  const base = tsc.createCompilerHost(options, true);
  const moduleCache = tsc.createModuleResolutionCache(packagesDir, (name) => name, options);
  const virtualRoot = join(packagesDir, '.virtual').replace(/\\/g, '/');

  /**
   * Compiles a page's project; one program for the whole page.
   * @param {Project} project (its root must be under `virtualRoot`)
   * @returns {SampleResult[]}
   */
  function compile(project) {
    /** @type {Map<string, string>} */
    const virtual = new Map();
    for (const file of project.files) {
      virtual.set(file.path, file.code);
    }
    for (const [path, code] of project.stubs) {
      virtual.set(path, code);
    }
    /** @param {string} path */
    const isVirtual = (path) => path.replace(/\\/g, '/').startsWith(`${virtualRoot}/`);
    /** Packages resolve from tools/samples only, never from the site around it. @param {string} path */
    const isOutside = (path) => !resolve(path).startsWith(packagesDir + sep);
    /** @type {import('typescript').CompilerHost} */
    const host = {
      ...base,
      getCurrentDirectory: () => project.root,
      fileExists(path) {
        if (isVirtual(path)) {
          return virtual.has(path);
        }
        let exists = fileExistsCache.get(path);
        if (exists === undefined) {
          exists = !isOutside(path) && base.fileExists(path);
          fileExistsCache.set(path, exists);
        }
        return exists;
      },
      directoryExists(path) {
        if (isVirtual(path)) {
          return [...virtual.keys()].some((file) => file.startsWith(`${path.replace(/\/$/, '')}/`));
        }
        let exists = directoryExistsCache.get(path);
        if (exists === undefined) {
          exists = !isOutside(path) && (base.directoryExists?.(path) ?? existsSync(path));
          directoryExistsCache.set(path, exists);
        }
        return exists;
      },
      realpath(path) {
        if (isVirtual(path)) {
          return path;
        }
        let real = realpathCache.get(path);
        if (real === undefined) {
          real = base.realpath?.(path) ?? path;
          realpathCache.set(path, real);
        }
        return real;
      },
      readFile(path) {
        return isVirtual(path) ? virtual.get(path) : base.readFile(path);
      },
      getSourceFile(path, languageVersion, onError) {
        if (isVirtual(path)) {
          const code = virtual.get(path);
          return code === undefined
            ? undefined
            : tsc.createSourceFile(path, code, languageVersion, true, tsc.ScriptKind.TS);
        }
        if (!sourceFiles.has(path)) {
          sourceFiles.set(path, base.getSourceFile(path, languageVersion, onError));
        }
        return sourceFiles.get(path);
      },
      writeFile() {},
      resolveModuleNames(names, containingFile) {
        return names.map((name) => {
          const local = project.resolve(name, containingFile);
          if (local) {
            return {resolvedFileName: local, extension: tsc.Extension.Ts};
          }
          return tsc.resolveModuleName(name, containingFile, options, host, moduleCache)
            .resolvedModule;
        });
      },
    };
    const program = tsc.createProgram({
      rootNames: project.files.map((file) => file.path),
      options,
      host,
    });
    return project.files.map((file) => {
      const source = program.getSourceFile(file.path);
      const diagnostics = source
        ? [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
        : [];
      const errors = diagnostics
        .filter((diagnostic) => diagnostic.category === tsc.DiagnosticCategory.Error)
        .map((diagnostic) => {
          const at =
            source && diagnostic.start !== undefined
              ? source.getLineAndCharacterOfPosition(diagnostic.start).line
              : 0;
          const shifted = file.fragmentAt !== null && at > file.fragmentAt ? at - 1 : at;
          const lines = file.sample.code.split('\n').length;
          return {
            line: file.sample.line + Math.min(shifted, lines - 1),
            message: `TS${diagnostic.code}: ${tsc.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`,
          };
        });
      return {sample: file.sample, file, errors};
    });
  }

  /** @type {Map<string, Set<string> | string>} */
  const runtimeExports = new Map();
  /**
   * The names a package exports at run time (require from packagesDir).
   * @param {string} module
   * @returns {Set<string> | string}
   */
  function exportsOf(module) {
    let names = runtimeExports.get(module);
    if (names === undefined) {
      try {
        names = new Set(Object.keys(require(module)));
      } catch (error) {
        names = `JavaScript: cannot load ${module} from tools/samples: ${/** @type {Error} */ (error).message.split('\n')[0]}`;
      }
      runtimeExports.set(module, names);
    }
    return names;
  }

  return {ts: tsc, options, virtualRoot, compile, exportsOf};
}

// ---------------------------------------------------------------------------
// The command

/**
 * The .md/.mdx files under a path (or the path itself), sorted.
 * @param {string} path
 * @returns {string[]}
 */
function markdownFiles(path) {
  if (!statSync(path).isDirectory()) {
    return [path];
  }
  return (
    readdirSync(path, {recursive: true, encoding: 'utf8'})
      .filter((name) => /\.mdx?$/.test(name))
      // The API reference is generated from the packages' declarations by the build, not written.
      .filter((name) => !/^api[\\/]/.test(relative(join(root, 'docs'), join(path, name))))
      .map((name) => join(path, name))
      .sort()
  );
}

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
  for (const path of targets.flatMap(markdownFiles)) {
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
          `${shown}:${errors[0].line}: [allow-listed] ${name}.${sample.lang}: ${entry.reason}`,
        );
        continue;
      }
      failing += 1;
      for (const error of errors) {
        out.log(`${shown}:${error.line}: ${name}.${sample.lang}: ${error.message}`);
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
