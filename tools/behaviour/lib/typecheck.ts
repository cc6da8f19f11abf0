/**
 * `typeErrors(files)` type-checks TypeScript written by a test or taken from a page against the NestJS 8
 * declarations in tools/behaviour/node_modules, with the compiler options of a Nest 8 project (strict
 * null checks off, decorators with metadata), and returns the diagnostics: for claims about what
 * compiles and what does not.
 */
import {mkdirSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {join, resolve} from 'node:path';

const behaviourRoot = resolve(__dirname, '..');
const ts = createRequire(join(behaviourRoot, 'package.json'))(
  'typescript',
) as typeof import('typescript');
let programs = 0;
// Declaration files from node_modules (Nest's, graphql's, Node's) are parsed once per worker.
const declarations = new Map<string, import('typescript').SourceFile>();

export interface TypeDiagnostic {
  /** `TS2345` and the like. */
  code: string;
  /** The file's name as given (without .ts) and the 1-based line. */
  at: string;
  message: string;
}

export function typeErrors(files: Record<string, string>): TypeDiagnostic[] {
  programs += 1;
  const dir = join(behaviourRoot, '.run', `typecheck-${process.pid}-${programs}`);
  mkdirSync(dir, {recursive: true});
  const names = Object.entries(files).map(([name, source]) => {
    const file = join(dir, `${name}.ts`);
    writeFileSync(file, source);
    return file;
  });
  const options: import('typescript').CompilerOptions = {
    module: ts.ModuleKind.CommonJS,
    target: ts.ScriptTarget.ES2021,
    moduleResolution: ts.ModuleResolutionKind.NodeJs,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    esModuleInterop: true,
    skipLibCheck: true,
    // The ES library without the DOM, and no @types packages: what the samples need, parsed quickly.
    lib: ['lib.es2021.d.ts'],
    types: [],
    noEmit: true,
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, fresh) => {
    if (!fileName.includes('/node_modules/')) return read(fileName, language, onError, fresh);
    let file = declarations.get(fileName);
    if (!file) {
      file = read(fileName, language, onError, fresh);
      if (file) declarations.set(fileName, file);
    }
    return file;
  };
  const program = ts.createProgram(names, options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ({
    code: `TS${d.code}`,
    at: d.file
      ? `${d.file.fileName.slice(dir.length + 1).replace(/\.ts$/, '')}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : '',
    message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  }));
}
