/**
 * docs/cli/overview.md against the real CLI (@nestjs/cli 8.2.8, @nestjs/schematics 8.0.11) in temporary folders.
 */
import {afterAll, beforeAll, expect} from 'vitest';
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {claim, readPage, expectOutput} from '../../lib';
import {
  actions,
  listFiles,
  nestCli,
  nestOk,
  newProject,
  readJson,
  tempDir,
  treeFiles,
} from './_support';

const page = 'docs/cli/overview.md';
// Created in beforeAll: a file whose tests are all filtered out leaves no folder behind.
let tmp: ReturnType<typeof tempDir>;
let project: string;

beforeAll(() => {
  tmp = tempDir('overview');
  // With git (the default): nest new initializes a repository and writes .gitignore.
  project = newProject(tmp.dir, 'my-project', []);
});
afterAll(() => tmp?.cleanup());

claim(
  `${page}#project-structure`,
  'nest new writes exactly the files of the standard mode tree, and a git repository',
  () => {
    const tree = readPage(page).fences.find(
      (f) => f.lang === 'text' && f.value.startsWith('my-project/'),
    );
    expect(tree).toBeDefined();
    expect(listFiles(project)).toEqual(treeFiles(tree!.value));
    expect(existsSync(join(project, '.git'))).toBe(true);
  },
  240_000,
);

claim(
  `${page}#project-structure`,
  'nest-cli.json names sourceRoot src and the collection; tsconfig.build.json extends tsconfig.json and excludes specs',
  () => {
    const cli = readJson(join(project, 'nest-cli.json'));
    expect(cli.sourceRoot).toBe('src');
    expect(cli.collection).toBe('@nestjs/schematics');
    const build = readJson(join(project, 'tsconfig.build.json'));
    expect(build.extends).toBe('./tsconfig.json');
    expect(build.exclude).toContain('**/*spec.ts');
  },
);

claim(
  `${page}#basic-workflow`,
  'generate module, controller and service cats: files in src/cats, controller and service registered in CatsModule',
  () => {
    nestOk(project, ['generate', 'module', 'cats']);
    nestOk(project, ['generate', 'controller', 'cats']);
    nestOk(project, ['generate', 'service', 'cats']);
    expect(listFiles(join(project, 'src', 'cats'))).toEqual([
      'cats.controller.spec.ts',
      'cats.controller.ts',
      'cats.module.ts',
      'cats.service.spec.ts',
      'cats.service.ts',
    ]);
    const mod = readFileSync(join(project, 'src', 'cats', 'cats.module.ts'), 'utf8');
    expect(mod).toMatch(/controllers: \[CatsController\]/);
    expect(mod).toMatch(/providers: \[CatsService\]/);
    expect(readFileSync(join(project, 'src', 'app.module.ts'), 'utf8')).toMatch(
      /imports: \[CatsModule\]/,
    );
  },
  240_000,
);

claim(
  `${page}#project-structure`,
  'nest build compiles main.ts to dist/main.js and leaves the spec files out of dist',
  () => {
    nestOk(project, ['build']);
    expect(existsSync(join(project, 'dist', 'main.js'))).toBe(true);
    expect(existsSync(join(project, 'dist', 'cats', 'cats.service.js'))).toBe(true);
    expect(listFiles(join(project, 'dist')).filter((f) => f.includes('spec'))).toEqual([]);
  },
  240_000,
);

claim(
  `${page}#basic-workflow`,
  'nest new --language js: nest-cli.json records "language": "js", scripts use babel-node and nodemon, generate writes .js',
  () => {
    const js = newProject(tmp.dir, 'js-project', ['--skip-git', '--language', 'js']);
    expect(readJson(join(js, 'nest-cli.json')).language).toBe('js');
    const scripts = readJson(join(js, 'package.json')).scripts;
    expect(scripts.start).toMatch(/^babel-node /);
    expect(scripts['start:dev']).toBe('nodemon');
    expect(JSON.stringify(scripts)).not.toContain('nest start');
    expect(actions(nestOk(js, ['g', 's', 'cats', '-d']))).toContain(
      'CREATE src/cats/cats.service.js',
    );
  },
  240_000,
);

claim(
  `${page}#command-syntax`,
  'generate service cats --no-spec --dry-run and g s cats --no-spec -d print the same plan and write nothing',
  () => {
    const long = nestOk(project, ['generate', 'service', 'dogs', '--no-spec', '--dry-run']);
    const short = nestOk(project, ['g', 's', 'dogs', '--no-spec', '-d']);
    expect(actions(long)).toEqual(actions(short));
    expect(actions(long)).toContain('CREATE src/dogs/dogs.service.ts');
    expect(actions(long).some((a) => a.includes('spec'))).toBe(false);
    expect(long.stdout).toContain('Dry run enabled. No files written to disk.');
    expect(existsSync(join(project, 'src', 'dogs'))).toBe(false);
  },
  240_000,
);

claim(
  `${page}#command-syntax`,
  'nest generate --help prints the table of schematics with their aliases',
  () => {
    const help = nestOk(project, ['generate', '--help']).stdout;
    expect(help).toMatch(/│ name\s+│ alias\s+│ description/);
    expect(help).toMatch(/│ service\s+│ s\s+│/);
    expect(help).toMatch(/│ resource\s+│ res\s+│/);
  },
);

claim(
  `${page}#command-syntax`,
  '--watchAssets and --preserveWatchOutput keep the camelCase form; --no-spec negates --spec',
  () => {
    expect(nestOk(project, ['build', '--help']).stdout).toMatch(/--watchAssets\b/);
    expect(nestOk(project, ['start', '--help']).stdout).toMatch(/--preserveWatchOutput\b/);
    const gen = nestOk(project, ['generate', '--help']).stdout;
    expect(gen).toMatch(/--spec\b/);
    expect(gen).toMatch(/--no-spec\b/);
  },
  // Three CLI runs: over 30 s once on the shared two-core machine at a load average of 20.
  120_000,
);

claim(
  `${page}#command-overview`,
  'the commands and aliases of the table: new|n, generate|g, build, start, add, info|i, update|u',
  () => {
    const help = nestOk(project, ['--help']).stdout;
    for (const command of [
      'new|n ',
      'generate|g ',
      'build ',
      'start ',
      'add ',
      'info|i ',
      'update|u ',
    ]) {
      expect(help).toContain(`  ${command}`);
    }
  },
);

const infoMask: [RegExp, string][] = [
  [/^(OS Version\s+:).*$/m, '$1 <os>'],
  [/^(NodeJS Version\s+:).*$/m, '$1 <node>'],
  [/^(NPM Version\s+:).*$/m, '$1 <npm>'],
];

claim(
  `${page}#checking-your-setup-with-nest-info`,
  'nest info in a project prints the system, CLI and platform sections shown (versions of the pinned set)',
  () => {
    const run = nestOk(project, ['info']);
    const body = run.stdout.slice(run.stdout.indexOf('[System Information]'));
    expectOutput(page, 'nest-info', body, infoMask);
  },
  240_000,
);

claim(
  `${page}#command-overview`,
  'nest i is the alias of nest info',
  () => {
    const run = nestOk(project, ['i']);
    expect(run.stdout).toContain('[Nest Platform Information]');
    expect(run.stdout).toMatch(/core version\s+: 8\.4\.7/);
  },
  240_000,
);

claim(
  `${page}#checking-your-setup-with-nest-info`,
  'outside a project nest info prints the system and CLI sections, then says it cannot read package.json',
  () => {
    const empty = tempDir('info');
    try {
      const run = nestCli(empty.dir, ['info']);
      expect(run.out).toContain('[System Information]');
      expect(run.out).toMatch(/Nest CLI Version : 8\.2\.8/);
      expect(run.out).toContain('cannot read your project package.json file');
      expect(run.out).not.toMatch(/core version/);
    } finally {
      empty.cleanup();
    }
  },
  240_000,
);

claim(
  `${page}#installation`,
  'a project made by nest new lists @nestjs/cli in its devDependencies, and its build script runs nest build',
  () => {
    const pkg = readJson(join(project, 'package.json'));
    expect(pkg.devDependencies['@nestjs/cli']).toBe('^8.0.0');
    expect(pkg.dependencies['@nestjs/cli']).toBeUndefined();
    expect(pkg.scripts.build).toBe('nest build');
  },
);

claim.failure(
  `${page}#basic-workflow`,
  'nest new into a folder that already holds files: the files are added next to them, and one it would overwrite (package.json) stops it with "A merge conflicted" (exit code 1), leaving it untouched',
  () => {
    const notes = join(tmp.dir, 'with-notes');
    mkdirSync(notes);
    writeFileSync(join(notes, 'notes.txt'), 'keep me');
    nestOk(tmp.dir, ['new', 'with-notes', '--skip-install', '--skip-git', '-p', 'npm']);
    expect(readFileSync(join(notes, 'notes.txt'), 'utf8')).toBe('keep me');
    expect(existsSync(join(notes, 'src', 'main.ts'))).toBe(true);
    const mine = join(tmp.dir, 'with-package');
    mkdirSync(mine);
    writeFileSync(join(mine, 'package.json'), '{"name":"mine","version":"9.9.9"}');
    const run = nestCli(tmp.dir, [
      'new',
      'with-package',
      '--skip-install',
      '--skip-git',
      '-p',
      'npm',
    ]);
    expect(run.status).toBe(1);
    expect(run.out).toContain('Error: A merge conflicted on path "/with-package/package.json".');
    expect(readFileSync(join(mine, 'package.json'), 'utf8')).toBe(
      '{"name":"mine","version":"9.9.9"}',
    );
    expect(existsSync(join(mine, 'src'))).toBe(false);
  },
  240_000,
);
