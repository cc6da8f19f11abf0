/**
 * docs/cli/libraries.md against the real CLI (@nestjs/cli 8.2.8, @nestjs/schematics 8.0.11): a workspace made by
 * nest new my-project, nest generate app my-app and nest generate library my-library (prefix prompt answered
 * with Enter), then the page's own samples built and run.
 */
import {afterAll, beforeAll, expect} from 'vitest';
import {spawnSync} from 'node:child_process';
import {existsSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {claim, expectOutput, readPage} from '../../lib';
import {
  actions,
  listFiles,
  nestOk,
  newProject,
  readJson,
  tempDir,
  treeFiles,
  writeJson,
} from './_support';

const page = 'docs/cli/libraries.md';
// Created in beforeAll: a file whose tests are all filtered out leaves no folder behind.
let tmp: ReturnType<typeof tempDir>;
let workspace: string;
let created: string[];
const lib = (...path: string[]) => join(workspace, 'libs', 'my-library', ...path);

const fence = (section: string, contains: string) => {
  const found = readPage(page).fences.find(
    (f) => f.section === section && f.value.includes(contains),
  );
  if (!found) throw new Error(`${page}#${section}: no fence containing ${contains}`);
  return found;
};

beforeAll(() => {
  tmp = tempDir('libraries');
  workspace = newProject(tmp.dir, 'my-project');
  nestOk(workspace, ['generate', 'app', 'my-app']);
  created = actions(
    nestOk(workspace, ['generate', 'library', 'my-library'], {tty: true, input: '\n'}),
  );
});
afterAll(() => tmp?.cleanup());

claim(
  `${page}#creating-a-library`,
  'with the default prefix, nest generate library prints the CREATE and UPDATE lines shown',
  () => {
    const shown = fence('creating-a-library', 'CREATE libs/').value.split('\n').slice(1);
    expect(created).toEqual(shown.filter((line) => line.trim() !== ''));
  },
);

claim(`${page}#library-structure`, 'the library has the files of the tree shown', () => {
  const tree = treeFiles(fence('library-structure', '└── my-library/').value);
  expect(listFiles(join(workspace, 'libs'))).toEqual(tree.map((f) => f));
});

claim(
  `${page}#library-structure`,
  'MyLibraryModule provides and exports MyLibraryService; index.ts re-exports both; tsconfig.lib.json extends the root',
  () => {
    const module = readFileSync(lib('src', 'my-library.module.ts'), 'utf8');
    expect(module).toMatch(/providers: \[MyLibraryService\]/);
    expect(module).toMatch(/exports: \[MyLibraryService\]/);
    expect(readFileSync(lib('src', 'index.ts'), 'utf8')).toBe(
      "export * from './my-library.module';\nexport * from './my-library.service';\n",
    );
    const config = readJson(lib('tsconfig.lib.json'));
    expect(config.extends).toBe('../../tsconfig.json');
    expect(config.compilerOptions).toEqual({
      declaration: true,
      outDir: '../../dist/libs/my-library',
    });
  },
);

claim(
  `${page}#library-structure`,
  'nest-cli.json gets the projects entry shown (type library, entryFile index)',
  () => {
    const shown = JSON.parse(fence('library-structure', '"type": "library"').value);
    expect(readJson(join(workspace, 'nest-cli.json')).projects['my-library']).toEqual(
      shown.projects['my-library'],
    );
  },
);

claim(
  `${page}#library-structure`,
  'tsconfig.json gets the two paths entries shown; package.json the Jest roots and moduleNameMapper',
  () => {
    const shown = JSON.parse(fence('library-structure', '"paths"').value);
    const tsconfig = readJson(join(workspace, 'tsconfig.json')).compilerOptions;
    expect(tsconfig.baseUrl).toBe('./');
    expect(tsconfig.paths).toEqual(shown.compilerOptions.paths);
    const jest = readJson(join(workspace, 'package.json')).jest;
    expect(jest.roots).toContain('<rootDir>/libs/');
    expect(jest.moduleNameMapper['^@app/my-library(|/.*)$']).toBe(
      '<rootDir>/libs/my-library/src/$1',
    );
  },
);

claim(
  `${page}#library-structure`,
  'generate service --project my-library: libs/my-library/src/cats-formatter/, added to providers only',
  () => {
    const run = nestOk(workspace, [
      'generate',
      'service',
      'cats-formatter',
      '--project',
      'my-library',
    ]);
    expect(actions(run)).toEqual([
      'CREATE libs/my-library/src/cats-formatter/cats-formatter.service.spec.ts',
      'CREATE libs/my-library/src/cats-formatter/cats-formatter.service.ts',
      'UPDATE libs/my-library/src/my-library.module.ts',
    ]);
    const module = readFileSync(lib('src', 'my-library.module.ts'), 'utf8');
    expect(module).toMatch(/providers: \[MyLibraryService, CatsFormatterService\]/);
    expect(module).toMatch(/exports: \[MyLibraryService\]/);
    expect(readFileSync(lib('src', 'index.ts'), 'utf8')).not.toContain('cats-formatter');
  },
  240_000,
);

claim(
  `${page}#using-a-library`,
  "the page's library service, index.ts and app.module build into one bundle, and the app injects the service",
  () => {
    writeFileSync(
      lib('src', 'my-library.service.ts'),
      fence('using-a-library', 'class MyLibraryService').ts!,
    );
    writeFileSync(
      lib('src', 'index.ts'),
      fence('using-a-library', "export * from './my-library.module'").ts!,
    );
    const app = join(workspace, 'apps', 'my-project', 'src');
    writeFileSync(
      join(app, 'app.module.ts'),
      fence('using-a-library', "from '@app/my-library'").ts!,
    );
    writeFileSync(
      join(app, 'main.ts'),
      [
        "import { NestFactory } from '@nestjs/core';",
        "import { MyLibraryService } from '@app/my-library';",
        "import { AppModule } from './app.module';",
        'async function bootstrap() {',
        '  const app = await NestFactory.createApplicationContext(AppModule, { logger: false });',
        "  console.log(app.get(MyLibraryService).describe({ name: 'Tom', age: 1, breed: 'Maine Coon' }));",
        '  await app.close();',
        '}',
        'bootstrap();',
        '',
      ].join('\n'),
    );
    nestOk(workspace, ['build', 'my-project']);
    expect(listFiles(join(workspace, 'dist'))).toEqual(['apps/my-project/main.js']);
    const run = spawnSync(
      process.execPath,
      [join(workspace, 'dist', 'apps', 'my-project', 'main.js')],
      {
        encoding: 'utf8',
      },
    );
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('Tom, a Maine Coon, 1 year old');
  },
  240_000,
);

claim(
  `${page}#using-a-library`,
  'a deep import through the second paths entry (@app/my-library/my-library.service) builds too',
  () => {
    const main = join(workspace, 'apps', 'my-project', 'src', 'main.ts');
    writeFileSync(
      main,
      readFileSync(main, 'utf8').replace(
        "import { MyLibraryService } from '@app/my-library';",
        "import { MyLibraryService } from '@app/my-library/my-library.service';",
      ),
    );
    nestOk(workspace, ['build', 'my-project']);
    const run = spawnSync(
      process.execPath,
      [join(workspace, 'dist', 'apps', 'my-project', 'main.js')],
      {
        encoding: 'utf8',
      },
    );
    expect(run.stdout.trim()).toBe('Tom, a Maine Coon, 1 year old');
  },
  240_000,
);

claim(
  `${page}#building-a-library-by-itself`,
  'nest build my-library bundles into dist/libs/my-library/index.js, without type declarations',
  () => {
    rmSync(join(workspace, 'dist'), {recursive: true, force: true});
    nestOk(workspace, ['build', 'my-library']);
    expect(listFiles(join(workspace, 'dist'))).toEqual(['libs/my-library/index.js']);
  },
  240_000,
);

claim(
  `${page}#building-a-library-by-itself`,
  "the webpack bundle of the library exports nothing: the page's require() of it prints {}",
  () => {
    rmSync(join(workspace, 'dist'), {recursive: true, force: true});
    nestOk(workspace, ['build', 'my-library']);
    const command = fence('building-a-library-by-itself', 'node -e').value.trim();
    const script = /^node -e "(.*)"$/.exec(command)?.[1];
    if (!script) throw new Error(`unexpected command: ${command}`);
    const run = spawnSync(process.execPath, ['-e', script], {
      cwd: workspace,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(0);
    expectOutput(page, 'library-bundle-exports', run.stdout.trim());
  },
  240_000,
);

claim(
  `${page}#building-a-library-by-itself`,
  'with --tsc, or "webpack": false in its compilerOptions, one .js and one .d.ts per source file',
  () => {
    const perFile = () => {
      const files = listFiles(join(workspace, 'dist', 'libs', 'my-library'));
      expect(files).toContain('index.js');
      expect(files).toContain('index.d.ts');
      expect(files).toContain('my-library.service.js');
      expect(files).toContain('my-library.service.d.ts');
      expect(files).toContain('cats-formatter/cats-formatter.service.d.ts');
    };
    rmSync(join(workspace, 'dist'), {recursive: true, force: true});
    nestOk(workspace, ['build', 'my-library', '--tsc']);
    perFile();
    rmSync(join(workspace, 'dist'), {recursive: true, force: true});
    const file = join(workspace, 'nest-cli.json');
    const cli = readJson(file);
    cli.projects['my-library'].compilerOptions.webpack = false;
    writeJson(file, cli);
    nestOk(workspace, ['build', 'my-library']);
    perFile();
  },
  240_000,
);

claim(
  `${page}#testing-code-that-uses-libraries`,
  "an application's test/jest-e2e.json gets no mapping for the alias",
  () => {
    for (const name of ['my-project', 'my-app']) {
      const config = readJson(join(workspace, 'apps', name, 'test', 'jest-e2e.json'));
      expect(config.rootDir).toBe('.');
      expect(config.moduleNameMapper).toBeUndefined();
    }
  },
);

claim(
  `${page}#libraries-in-standard-mode`,
  'in a standard project: libs/ and a projects entry, webpack on, app still in src, no "monorepo": true',
  () => {
    const standard = newProject(tmp.dir, 'standard');
    nestOk(standard, ['generate', 'library', 'shared'], {tty: true, input: '\n'});
    const cli = readJson(join(standard, 'nest-cli.json'));
    expect(existsSync(join(standard, 'libs', 'shared', 'src', 'index.ts'))).toBe(true);
    expect(cli.projects.shared.type).toBe('library');
    expect(cli.compilerOptions.webpack).toBe(true);
    expect(cli.monorepo).toBeUndefined();
    expect(existsSync(join(standard, 'src', 'main.ts'))).toBe(true);
    expect(existsSync(join(standard, 'apps'))).toBe(false);
  },
  240_000,
);
