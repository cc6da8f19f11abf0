// @ts-check
/**
 * One `ts.createProgram` per page, with the library files parsed once for all. The options are
 * those of a Nest 8 CLI project where it matters (strict off, decorators with metadata,
 * allowSyntheticDefaultImports without esModuleInterop, so that
 * `import * as cookieParser from 'cookie-parser'` stays callable as the docs write it), plus
 * skipLibCheck and noEmit.
 */
import {createRequire} from 'node:module';
import {existsSync} from 'node:fs';
import {join, resolve, sep} from 'node:path';

/**
 * @typedef {import('./types').Sample} Sample
 * @typedef {import('./types').ProjectFile} ProjectFile
 * @typedef {import('./types').Project} Project
 * @typedef {import('./types').SampleResult} SampleResult
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
