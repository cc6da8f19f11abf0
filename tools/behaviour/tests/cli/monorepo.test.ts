/**
 * docs/cli/monorepo.md against the real CLI (@nestjs/cli 8.2.8, @nestjs/schematics 8.0.11): one workspace made
 * the way the page makes it (nest new my-project, nest generate app my-app), and one standard project for the
 * compiler and generate options.
 */
import {afterAll, beforeAll, expect} from 'vitest';
import {spawn, spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {claim, expectOutput, readPage} from '../../lib';
import {
  actions,
  listFiles,
  nestCli,
  nestOk,
  newProject,
  nodeModules,
  readJson,
  tempDir,
  treeFiles,
  writeJson,
} from './_support';

const page = 'docs/cli/monorepo.md';
// Created in beforeAll: a file whose tests are all filtered out leaves no folder behind.
let tmp: ReturnType<typeof tempDir>;
let workspace: string;
let standard: string;
let converted: {cli: unknown; run: string[]};

const fence = (section: string, contains: string) => {
  const found = readPage(page).fences.find(
    (f) => f.section === section && f.value.includes(contains),
  );
  if (!found) throw new Error(`${page}#${section}: no fence containing ${contains}`);
  return found.value;
};

beforeAll(() => {
  tmp = tempDir('monorepo');
  workspace = newProject(tmp.dir, 'my-project');
  const run = nestOk(workspace, ['generate', 'app', 'my-app']);
  converted = {cli: readJson(join(workspace, 'nest-cli.json')), run: actions(run)};
  standard = newProject(tmp.dir, 'standard');
});
afterAll(() => tmp?.cleanup());

// Review 5 (attack-cli): a second workspace of its own (my-project, my-app, my-library), made on first use,
// so that these claims do not depend on what the claims above left in nest-cli.json.
let attacked: string | undefined;
function attackWorkspace(): string {
  if (attacked) return attacked;
  const parent = join(tmp.dir, 'attack');
  mkdirSync(parent);
  const dir = newProject(parent, 'my-project');
  nestOk(dir, ['generate', 'app', 'my-app']);
  nestOk(dir, ['g', 'library', 'my-library'], {tty: true, input: '\n'});
  attacked = dir;
  return dir;
}
/** `nest start <args> --exec echo`: the CLI builds, then prints the entry file it would run instead of running it. */
function entryStarted(dir: string, args: string[]): string {
  const run = nestOk(dir, ['start', ...args, '--exec', 'echo']);
  const line = run.stdout.split('\n').find((l) => l.includes('source-map-support/register'));
  if (!line) throw new Error(`no start line in:\n${run.out}`);
  return line.replace(/^.*source-map-support\/register /, '').trim();
}

claim(
  `${page}#cli-properties`,
  'a new standard project starts with the nest-cli.json shown',
  () => {
    expect(readJson(join(standard, 'nest-cli.json'))).toEqual(
      JSON.parse(fence('cli-properties', '"sourceRoot": "src"')),
    );
  },
);

claim(
  `${page}#creating-a-workspace`,
  'nest generate app my-app rewrites nest-cli.json into the workspace file shown',
  () => {
    expect(converted.cli).toEqual(JSON.parse(fence('creating-a-workspace', '"projects"')));
  },
);

claim(
  `${page}#creating-a-workspace`,
  'the workspace has the files of the tree shown (src and test moved into apps/my-project)',
  () => {
    const tree = treeFiles(fence('creating-a-workspace', '├── apps/'));
    const files = listFiles(workspace);
    expect(files.filter((f) => f.startsWith('apps/'))).toEqual(
      tree.filter((f) => f.startsWith('apps/')),
    );
    for (const file of tree) expect(files, file).toContain(file);
    expect(existsSync(join(workspace, 'src'))).toBe(false);
    expect(existsSync(join(workspace, 'test'))).toBe(false);
  },
);

claim(
  `${page}#creating-a-workspace`,
  'each tsconfig.app.json extends the root tsconfig.json and sends its output to dist/apps/<name>',
  () => {
    for (const name of ['my-project', 'my-app']) {
      const config = readJson(join(workspace, 'apps', name, 'tsconfig.app.json'));
      expect(config.extends).toBe('../../tsconfig.json');
      expect(config.compilerOptions.outDir).toBe(`../../dist/apps/${name}`);
    }
  },
);

claim(
  `${page}#creating-a-workspace`,
  'package.json: Jest roots cover apps/, format covers apps/ and libs/, test:e2e uses apps/my-project/test',
  () => {
    const pkg = readJson(join(workspace, 'package.json'));
    expect(pkg.jest.rootDir).toBe('.');
    expect(pkg.jest.roots).toEqual(['<rootDir>/apps/']);
    expect(pkg.scripts.format).toBe('prettier --write "apps/**/*.ts" "libs/**/*.ts"');
    expect(pkg.scripts['test:e2e']).toBe('jest --config ./apps/my-project/test/jest-e2e.json');
  },
);

claim(
  `${page}#creating-a-workspace`,
  'the original application is named after the name field of package.json, not the folder',
  () => {
    const other = newProject(tmp.dir, 'folder-name');
    const pkg = readJson(join(other, 'package.json'));
    writeJson(join(other, 'package.json'), {...pkg, name: 'orders-api'});
    nestOk(other, ['g', 'app', 'worker']);
    expect(existsSync(join(other, 'apps', 'orders-api', 'src', 'main.ts'))).toBe(true);
    expect(Object.keys(readJson(join(other, 'nest-cli.json')).projects)).toEqual([
      'orders-api',
      'worker',
    ]);
  },
  240_000,
);

claim(
  `${page}#creating-a-workspace`,
  'when apps/<name>/src exists already, the schematic stops with The "apps" directory exists already.',
  () => {
    const other = newProject(tmp.dir, 'blocked');
    mkdirSync(join(other, 'apps', 'blocked', 'src'), {recursive: true});
    const run = nestCli(other, ['g', 'app', 'second']);
    expect(run.out).toContain('The "apps" directory exists already.');
    expect(existsSync(join(other, 'apps', 'second'))).toBe(false);
    expect(existsSync(join(other, 'src', 'main.ts'))).toBe(true);
  },
  240_000,
);

claim(
  `${page}#creating-a-workspace`,
  'a further application in a workspace only adds its folder and its projects entry',
  () => {
    const before = (file: string) => readFileSync(join(workspace, file), 'utf8');
    const tsconfig = before('tsconfig.json');
    const pkg = before('package.json');
    const cli = readJson(join(workspace, 'nest-cli.json'));
    nestOk(workspace, ['g', 'app', 'admin']);
    // The schematic reports UPDATE tsconfig.json and package.json, but writes them back unchanged.
    expect(before('tsconfig.json')).toBe(tsconfig);
    expect(before('package.json')).toBe(pkg);
    expect(existsSync(join(workspace, 'apps', 'admin', 'src', 'main.ts'))).toBe(true);
    const after = readJson(join(workspace, 'nest-cli.json'));
    expect(Object.keys(after.projects)).toEqual(['my-project', 'my-app', 'admin']);
    delete after.projects.admin;
    expect(after).toEqual(cli);
  },
  240_000,
);

claim(
  `${page}#running-and-building-applications`,
  'nest build my-app writes dist/apps/my-app/main.js; nest build without a name builds the default project',
  () => {
    nestOk(workspace, ['build', 'my-app']);
    expect(listFiles(join(workspace, 'dist'))).toEqual(['apps/my-app/main.js']);
    nestOk(workspace, ['build']);
    expect(existsSync(join(workspace, 'dist', 'apps', 'my-project', 'main.js'))).toBe(true);
  },
  240_000,
);

claim.failure(
  `${page}#running-and-building-applications`,
  'a project name that is not in nest-cli.json (my-ap): nest build builds the default project instead, with exit code 0',
  () => {
    rmSync(join(workspace, 'dist'), {recursive: true, force: true});
    const run = nestCli(workspace, ['build', 'my-ap']);
    expect(run.status).toBe(0);
    expect(listFiles(join(workspace, 'dist'))).toEqual(['apps/my-project/main.js']);
  },
  240_000,
);

claim(
  `${page}#webpack-bundling`,
  'the bundle holds the library code; packages from node_modules stay outside as require() calls',
  () => {
    nestOk(workspace, ['g', 'library', 'my-library'], {tty: true, input: '\n'});
    const module = join(workspace, 'apps', 'my-app', 'src', 'my-app.module.ts');
    writeFileSync(
      module,
      readFileSync(module, 'utf8')
        .replace(
          "from '@nestjs/common';",
          "from '@nestjs/common';\nimport { MyLibraryModule } from '@app/my-library';",
        )
        .replace('imports: []', 'imports: [MyLibraryModule]'),
    );
    nestOk(workspace, ['build', 'my-app']);
    const bundle = readFileSync(join(workspace, 'dist', 'apps', 'my-app', 'main.js'), 'utf8');
    expect(bundle).toContain('class MyLibraryService');
    expect(bundle).toContain('require("@nestjs/core")');
    expect(bundle).not.toContain('class NestFactoryStatic');
  },
  240_000,
);

claim(
  `${page}#webpack-bundling`,
  'with --tsc, an application that imports a library compiles to dist/apps/my-app/apps/my-app/src/main.js',
  () => {
    nestOk(workspace, ['build', 'my-app', '--tsc']);
    expect(
      existsSync(join(workspace, 'dist', 'apps', 'my-app', 'apps', 'my-app', 'src', 'main.js')),
    ).toBe(true);
    expect(
      existsSync(
        join(workspace, 'dist', 'apps', 'my-app', 'libs', 'my-library', 'src', 'index.js'),
      ),
    ).toBe(true);
  },
  240_000,
);

claim(
  `${page}#webpack-bundling`,
  "the page's webpack.config.js function gets the defaults and webpack: source maps and the DefinePlugin value",
  () => {
    writeFileSync(join(workspace, 'webpack.config.js'), fence('webpack-bundling', 'DefinePlugin'));
    const main = join(workspace, 'apps', 'my-app', 'src', 'main.ts');
    writeFileSync(
      main,
      `console.log('built at', process.env.BUILD_TIME);\n${readFileSync(main, 'utf8')}`,
    );
    try {
      nestOk(workspace, ['build', 'my-app']);
      const out = join(workspace, 'dist', 'apps', 'my-app');
      const bundle = readFileSync(join(out, 'main.js'), 'utf8');
      expect(bundle).toMatch(/console\.log\('built at', "\d{4}-\d\d-\d\dT[\d:.]+Z"\)/);
      expect(existsSync(join(out, 'main.js.map'))).toBe(true);
    } finally {
      writeFileSync(
        join(workspace, 'webpack.config.js'),
        'module.exports = (options) => options;\n',
      );
    }
  },
  240_000,
);

claim(
  `${page}#global-compiler-options`,
  'a webpackConfigPath other than the top-level default must exist, or the build fails',
  () => {
    const run = nestCli(workspace, ['build', 'my-app', '--webpackPath', 'missing.config.js']);
    expect(run.out).toMatch(/Cannot find module '.*missing\.config\.js'/);
  },
  240_000,
);

claim(
  `${page}#project-properties`,
  'a project option replaces only that option: my-app webpack: false compiles with tsc, top-level deleteOutDir still cleans',
  () => {
    const file = join(workspace, 'nest-cli.json');
    const cli = readJson(file);
    cli.compilerOptions.deleteOutDir = true;
    cli.projects['my-app'].compilerOptions.webpack = false;
    writeJson(file, cli);
    const stale = join(workspace, 'dist', 'apps', 'my-app', 'stale.js');
    writeFileSync(stale, '');
    nestOk(workspace, ['build', 'my-app']);
    expect(existsSync(stale)).toBe(false);
    expect(
      existsSync(
        join(workspace, 'dist', 'apps', 'my-app', 'apps', 'my-app', 'src', 'my-app.module.js'),
      ),
    ).toBe(true);
  },
  240_000,
);

claim(
  `${page}#the-default-project`,
  'pointing the top-level sourceRoot, root and tsConfigPath at my-app makes it the default of nest build',
  () => {
    const file = join(workspace, 'nest-cli.json');
    const cli = readJson(file);
    cli.sourceRoot = 'apps/my-app/src';
    cli.root = 'apps/my-app';
    cli.compilerOptions.tsConfigPath = 'apps/my-app/tsconfig.app.json';
    cli.projects['my-app'].compilerOptions.webpack = true;
    writeJson(file, cli);
    rmSync(join(workspace, 'dist'), {recursive: true, force: true});
    nestOk(workspace, ['build']);
    expect(listFiles(join(workspace, 'dist'))).toEqual(['apps/my-app/main.js']);
  },
  240_000,
);

claim(
  `${page}#project-specific-generate-options`,
  "the project's generateOptions win over the top-level ones, which apply where the project has no key",
  () => {
    const file = join(workspace, 'nest-cli.json');
    const cli = readJson(file);
    cli.generateOptions = {spec: true};
    cli.projects['my-app'].generateOptions = {spec: {service: false}};
    writeJson(file, cli);
    expect(actions(nestOk(workspace, ['g', 'service', 'cats', '-p', 'my-app', '-d']))).toEqual([
      'CREATE apps/my-app/src/cats/cats.service.ts',
      'UPDATE apps/my-app/src/my-app.module.ts',
    ]);
    expect(actions(nestOk(workspace, ['g', 'controller', 'cats', '-p', 'my-app', '-d']))).toContain(
      'CREATE apps/my-app/src/cats/cats.controller.spec.ts',
    );
  },
  240_000,
);

claim(
  `${page}#typescript-paths-for-libraries`,
  'the library adds the two paths entries shown and a Jest moduleNameMapper to package.json',
  () => {
    const paths = readJson(join(workspace, 'tsconfig.json')).compilerOptions.paths;
    expect(paths).toEqual(
      JSON.parse(fence('typescript-paths-for-libraries', '"paths"')).compilerOptions.paths,
    );
    expect(readJson(join(workspace, 'package.json')).jest.moduleNameMapper).toEqual({
      '^@app/my-library(|/.*)$': '<rootDir>/libs/my-library/src/$1',
    });
  },
);

// The standard project: generate options, assets, deleteOutDir.

claim(
  `${page}#specifying-generate-options`,
  'spec keyed by schematic: service keeps its spec, controller gets none, --spec on the command line wins',
  () => {
    const file = join(standard, 'nest-cli.json');
    writeJson(file, {
      ...readJson(file),
      ...JSON.parse(fence('specifying-generate-options', '"controller": false')),
    });
    expect(actions(nestOk(standard, ['g', 'service', 'cats', '-d']))).toContain(
      'CREATE src/cats/cats.service.spec.ts',
    );
    expect(actions(nestOk(standard, ['g', 'controller', 'cats', '-d']))).toEqual([
      'CREATE src/cats/cats.controller.ts',
      'UPDATE src/app.module.ts',
    ]);
    expect(actions(nestOk(standard, ['g', 'controller', 'cats', '--spec', '-d']))).toContain(
      'CREATE src/cats/cats.controller.spec.ts',
    );
  },
  240_000,
);

claim(
  `${page}#specifying-generate-options`,
  'a key matches the schematic name as typed: "controller": false does not apply to nest g co',
  () => {
    expect(actions(nestOk(standard, ['g', 'co', 'cats', '-d']))).toContain(
      'CREATE src/cats/cats.controller.spec.ts',
    );
  },
  240_000,
);

claim(
  `${page}#assets`,
  "the page's assets: .graphql copied with the src structure, i18n kept minus drafts, public into dist/static/public",
  () => {
    const file = join(standard, 'nest-cli.json');
    const sample = JSON.parse(fence('assets', '"include": "public/**/*"'));
    writeJson(file, {...readJson(file), compilerOptions: sample.compilerOptions});
    const write = (path: string) => {
      mkdirSync(join(standard, 'src', path, '..'), {recursive: true});
      writeFileSync(join(standard, 'src', path), path.endsWith('.json') ? '{}' : 'x');
    };
    ['cats/cats.graphql', 'i18n/en.json', 'i18n/drafts/fr.json', 'public/img/logo.svg'].forEach(
      write,
    );
    nestOk(standard, ['build']);
    const dist = listFiles(join(standard, 'dist'));
    expect(dist).toContain('cats/cats.graphql');
    expect(dist).toContain('i18n/en.json');
    expect(dist).not.toContain('i18n/drafts/fr.json');
    expect(dist).toContain('static/public/img/logo.svg');
    expect(dist).not.toContain('public/img/logo.svg');
  },
  240_000,
);

claim(
  `${page}#assets`,
  'a glob written from the project root (src/**/*.graphql) copies nothing',
  () => {
    const file = join(standard, 'nest-cli.json');
    writeJson(file, {
      ...readJson(file),
      compilerOptions: {deleteOutDir: true, assets: ['src/**/*.graphql']},
    });
    nestOk(standard, ['build']);
    expect(listFiles(join(standard, 'dist')).filter((f) => f.endsWith('.graphql'))).toEqual([]);
  },
  240_000,
);

claim(
  `${page}#global-compiler-options`,
  'deleteOutDir: true removes the output folder before the build (a stale file is gone)',
  () => {
    writeFileSync(join(standard, 'dist', 'stale.js'), '');
    nestOk(standard, ['build']);
    expect(existsSync(join(standard, 'dist', 'stale.js'))).toBe(false);
    expect(existsSync(join(standard, 'dist', 'main.js'))).toBe(true);
  },
  240_000,
);

// Review 5 (attack-cli): what a reader's copy of the workspace commands does.

claim.failure(
  `${page}#typescript-paths-for-libraries`,
  "a dynamic import('@app/my-library') keeps its alias in the tsc build: the build exits 0 and the import fails when it runs; the webpack bundle resolves it",
  () => {
    const dir = attackWorkspace();
    const main = join(dir, 'apps', 'my-app', 'src', 'main.ts');
    const before = readFileSync(main, 'utf8');
    writeFileSync(
      main,
      [
        "import('@app/my-library').then(",
        "  (lib) => console.log('loaded', Object.keys(lib).sort().join(',')),",
        "  (error) => console.log(String(error).split('\\n')[0]),",
        ');',
        '',
      ].join('\n'),
    );
    const run = (file: string) =>
      spawnSync(process.execPath, [file], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 30_000,
      }).stdout.trim();
    try {
      rmSync(join(dir, 'dist'), {recursive: true, force: true});
      nestOk(dir, ['build', 'my-app', '--tsc']);
      const emitted = join(dir, 'dist', 'apps', 'my-app', 'apps', 'my-app', 'src', 'main.js');
      expect(readFileSync(emitted, 'utf8')).toContain("require('@app/my-library')");
      expectOutput(page, 'tsc-dynamic-import', run(emitted));
      rmSync(join(dir, 'dist'), {recursive: true, force: true});
      nestOk(dir, ['build', 'my-app']);
      expect(run(join(dir, 'dist', 'apps', 'my-app', 'main.js'))).toBe(
        'loaded MyLibraryModule,MyLibraryService',
      );
    } finally {
      writeFileSync(main, before);
      rmSync(join(dir, 'dist'), {recursive: true, force: true});
    }
  },
  300_000,
);

claim.failure(
  `${page}#switching-between-webpack-and-tsc`,
  'after one nest build my-app --tsc (my-app imports the library), nest start my-app runs the old tsc output instead of the new bundle; with deleteOutDir: true it runs the bundle',
  () => {
    const dir = attackWorkspace();
    const out = join(dir, 'dist', 'apps', 'my-app');
    const file = join(dir, 'nest-cli.json');
    const before = readFileSync(file, 'utf8');
    // An application that imports a library: its tsc output is nested under dist/apps/my-app/apps/my-app/src.
    const module = join(dir, 'apps', 'my-app', 'src', 'my-app.module.ts');
    const moduleBefore = readFileSync(module, 'utf8');
    writeFileSync(
      module,
      moduleBefore
        .replace(
          "from '@nestjs/common';",
          "from '@nestjs/common';\nimport { MyLibraryModule } from '@app/my-library';",
        )
        .replace('imports: []', 'imports: [MyLibraryModule]'),
    );
    try {
      rmSync(join(dir, 'dist'), {recursive: true, force: true});
      nestOk(dir, ['build', 'my-app', '--tsc']);
      // The webpack build succeeds and writes a new bundle, but the stale nested file is what starts.
      expect(entryStarted(dir, ['my-app'])).toBe(join(out, 'apps', 'my-app', 'src', 'main'));
      expect(existsSync(join(out, 'main.js'))).toBe(true);
      const cli = readJson(file);
      cli.compilerOptions.deleteOutDir = true;
      writeJson(file, cli);
      expect(entryStarted(dir, ['my-app'])).toBe(join(out, 'main'));
    } finally {
      writeFileSync(module, moduleBefore);
      writeFileSync(file, before);
      rmSync(join(dir, 'dist'), {recursive: true, force: true});
    }
  },
  300_000,
);

claim.failure(
  `${page}#project-names-that-do-not-exist`,
  'nest start my-ap (not a project) starts the default application, my-project, with exit code 0',
  () => {
    const dir = attackWorkspace();
    try {
      expect(entryStarted(dir, ['my-ap'])).toBe(join(dir, 'dist', 'apps', 'my-project', 'main'));
    } finally {
      rmSync(join(dir, 'dist'), {recursive: true, force: true});
    }
  },
  300_000,
);

claim.failure(
  `${page}#type-errors-in-watch-mode`,
  'nest start my-app --watch (webpack) restarts the application with a change that has a type error; the error is printed as well',
  async () => {
    const dir = attackWorkspace();
    const main = join(dir, 'apps', 'my-app', 'src', 'main.ts');
    const before = readFileSync(main, 'utf8');
    writeFileSync(main, "const version: string = 'one';\nconsole.log(`started ${version}`);\n");
    const env: NodeJS.ProcessEnv = {...process.env, FORCE_COLOR: '0', NO_COLOR: '1'};
    delete env.NODE_ENV;
    const child = spawn(
      process.execPath,
      [join(nodeModules, '@nestjs', 'cli', 'bin', 'nest.js'), 'start', 'my-app', '--watch'],
      {cwd: dir, env, detached: true},
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const waitFor = async (text: string, ms: number) => {
      const end = Date.now() + ms;
      while (!out.includes(text)) {
        if (Date.now() > end) throw new Error(`no "${text}" within ${ms} ms:\n${out}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    try {
      await waitFor('started one', 150_000);
      // A number where a string is declared: tsc would refuse to emit a runnable change.
      writeFileSync(main, 'const version: string = 2;\nconsole.log(`started ${version}`);\n');
      await waitFor('started 2', 120_000);
      await waitFor('TS2322', 120_000);
    } finally {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
      writeFileSync(main, before);
      rmSync(join(dir, 'dist'), {recursive: true, force: true});
    }
  },
  400_000,
);
