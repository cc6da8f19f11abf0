import {expect} from 'vitest';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {claim, nest} from '../../lib';
import {tempDir} from './_support';

const page = 'docs/graphql/cli-plugin.md';
const ts = nest('typescript');
const plugin = nest('@nestjs/graphql/plugin');

/** Compiles the files as `nest build` does with the plugin in compilerOptions.plugins (a `before` transformer). */
function build(files: Record<string, string>): {out: (name: string) => string} {
  const dir = tempDir(files);
  const options = {
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    module: ts.ModuleKind.CommonJS,
    target: ts.ScriptTarget.ES2019,
    moduleResolution: ts.ModuleResolutionKind.NodeJs,
    outDir: join(dir, 'dist'),
    rootDir: dir,
    skipLibCheck: true,
    // The models import nothing from node_modules, so the program stays small (the plugin visits every class of a *.model.ts file).
    types: [],
  };
  const program = ts.createProgram(
    Object.keys(files).map((name) => join(dir, name)),
    options,
  );
  program.emit(undefined, undefined, undefined, false, {before: [plugin.before({}, program)]});
  return {out: (name) => readFileSync(join(dir, 'dist', name), 'utf8')};
}

const quiet = <T>(fn: () => T): T => {
  const original = process.emitWarning;
  process.emitWarning = () => undefined;
  try {
    return fn();
  } finally {
    process.emitWarning = original;
  }
};

claim(
  `${page}#using-the-cli-plugin`,
  `with TypeScript ${ts.version} (4.8 or later) the 9.x plugin emits no field metadata for a scalar-only model`,
  () => {
    expect(ts.version >= '4.8').toBe(true);
    const {out} = quiet(() =>
      build({'dog.model.ts': 'export class Dog {\n  name: string;\n  age?: number;\n}\n'}),
    );
    expect(out('dog.model.js')).toContain('class Dog');
    expect(out('dog.model.js')).not.toContain('_GRAPHQL_METADATA_FACTORY');
  },
);

claim(
  `${page}#using-the-cli-plugin`,
  `with TypeScript ${ts.version} a property typed by another class stops the build with "Invalid arguments"`,
  () => {
    expect(() =>
      quiet(() =>
        build({
          'owner.model.ts': 'export class Owner {\n  name: string;\n}\n',
          'cat.model.ts':
            "import { Owner } from './owner.model';\n\nexport class Cat {\n  name: string;\n  owner: Owner;\n}\n",
        }),
      ),
    ).toThrow('Invalid arguments');
  },
);
