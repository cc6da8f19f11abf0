/**
 * docs/cli/usages.md against the real CLI (@nestjs/cli 8.2.8, @nestjs/schematics 8.0.11) in temporary folders.
 */
import {afterAll, beforeAll, expect} from 'vitest';
import {spawnSync} from 'node:child_process';
import {existsSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {claim, expectOutput, readPage, repoRoot} from '../../lib';
import {
  actions,
  listFiles,
  nestCli,
  nestOk,
  newProject,
  nodeModules,
  readJson,
  tempDir,
} from './_support';

const page = 'docs/cli/usages.md';
// Created in beforeAll: a file whose tests are all filtered out leaves no folder behind.
let tmp: ReturnType<typeof tempDir>;
let project: string;

beforeAll(() => {
  tmp = tempDir('usages');
  project = newProject(tmp.dir, 'usage-project');
});
afterAll(() => tmp?.cleanup());

claim(
  `${page}#nest-new`,
  '--language takes typescript or javascript in any letter case, or ts / js',
  () => {
    const firstFile = (language: string) => {
      const run = nestOk(tmp.dir, [
        'new',
        'lang',
        '--language',
        language,
        '--skip-install',
        '--skip-git',
        '-p',
        'npm',
        '-d',
      ]);
      return actions(run);
    };
    for (const language of ['js', 'JavaScript', 'JS']) {
      expect(firstFile(language)).toContain('CREATE lang/src/main.js');
    }
    for (const language of ['ts', 'TypeScript', 'typescript']) {
      expect(firstFile(language)).toContain('CREATE lang/src/main.ts');
    }
  },
  240_000,
);

claim(`${page}#nest-new`, 'any other --language value fails', () => {
  const run = nestCli(tmp.dir, [
    'new',
    'lang',
    '--language',
    'python',
    '--skip-install',
    '-p',
    'npm',
    '-d',
  ]);
  expect(run.status).not.toBe(0);
  expect(run.out).toContain('Invalid language "python" selected');
  expect(existsSync(join(tmp.dir, 'lang'))).toBe(false);
});

claim(`${page}#nest-new`, '--dry-run lists the files without writing anything', () => {
  const run = nestOk(tmp.dir, ['new', 'dry', '--skip-install', '-p', 'npm', '--dry-run']);
  expect(actions(run)).toContain('CREATE dry/src/app.module.ts');
  expect(existsSync(join(tmp.dir, 'dry'))).toBe(false);
});

claim(`${page}#nest-new`, '--skip-git creates no git repository', () => {
  expect(existsSync(join(project, 'src', 'main.ts'))).toBe(true);
  expect(existsSync(join(project, '.git'))).toBe(false);
});

claim(
  `${page}#nest-new`,
  '--strict sets the five compiler options to true; without it they are written as false',
  () => {
    const strict = newProject(tmp.dir, 'strict-project', ['--skip-git', '--strict']);
    const options = [
      'strictNullChecks',
      'noImplicitAny',
      'strictBindCallApply',
      'forceConsistentCasingInFileNames',
      'noFallthroughCasesInSwitch',
    ];
    const on = readJson(join(strict, 'tsconfig.json')).compilerOptions;
    const off = readJson(join(project, 'tsconfig.json')).compilerOptions;
    for (const option of options) {
      expect(on[option], option).toBe(true);
      expect(off[option], option).toBe(false);
    }
  },
  240_000,
);

claim(
  `${page}#nest-generate`,
  'the path argument is relative to sourceRoot: nest g service cats core writes src/core/cats/cats.service.ts',
  () => {
    expect(actions(nestOk(project, ['g', 'service', 'cats', 'core', '-d']))).toContain(
      'CREATE src/core/cats/cats.service.ts',
    );
  },
);

claim(
  `${page}#nest-generate`,
  'every schematic of the table exists in the CLI under that alias',
  () => {
    const help = nestOk(project, ['generate', '--help']).stdout;
    const cli = new Map<string, string>();
    for (const m of help.matchAll(/│ ([\w-]+)\s+│ ([\w-]+)\s+│/g)) cli.set(m[1], m[2]);
    const markdown = readFileSync(join(repoRoot, page), 'utf8');
    const section = markdown.slice(
      markdown.indexOf('## nest generate'),
      markdown.indexOf('## nest build'),
    );
    const rows = [...section.matchAll(/^\| `([\w-]+)`\s*\| (?:`([\w-]+)`)?\s*\|/gm)].filter(
      (m) => !m[1].startsWith('-'),
    );
    expect(rows.length).toBeGreaterThan(15);
    for (const [, name, alias] of rows) {
      expect(cli.has(name), name).toBe(true);
      // The CLI prints a schematic without a short form with its own name as the alias.
      expect(cli.get(name), name).toBe(alias ?? name);
    }
  },
);

claim(
  `${page}#nest-generate`,
  'resource generates module, controller, service, DTOs and entity (REST with CRUD when nobody answers)',
  () => {
    expect(actions(nestOk(project, ['g', 'resource', 'cats', '--dry-run']))).toEqual(
      expect.arrayContaining([
        'CREATE src/cats/cats.controller.ts',
        'CREATE src/cats/cats.module.ts',
        'CREATE src/cats/cats.service.ts',
        'CREATE src/cats/dto/create-cat.dto.ts',
        'CREATE src/cats/dto/update-cat.dto.ts',
        'CREATE src/cats/entities/cat.entity.ts',
        'UPDATE src/app.module.ts',
      ]),
    );
  },
  240_000,
);

claim(
  `${page}#nest-generate`,
  '--flat writes into the target folder itself; --no-spec skips the spec file',
  () => {
    const run = nestOk(project, ['g', 'controller', 'cats', '--flat', '--no-spec']);
    expect(actions(run)).toEqual(['CREATE src/cats.controller.ts', 'UPDATE src/app.module.ts']);
    expect(listFiles(join(project, 'src')).filter((f) => f.startsWith('cats'))).toEqual([
      'cats.controller.ts',
    ]);
    expect(readFileSync(join(project, 'src', 'app.module.ts'), 'utf8')).toMatch(
      /controllers: \[AppController, CatsController\]/,
    );
  },
  240_000,
);

claim(
  `${page}#nest-generate`,
  '--skip-import leaves the module alone; spec files are generated by default',
  () => {
    expect(actions(nestOk(project, ['g', 'service', 'dogs', '--skip-import', '-d']))).toEqual([
      'CREATE src/dogs/dogs.service.spec.ts',
      'CREATE src/dogs/dogs.service.ts',
    ]);
    expect(actions(nestOk(project, ['g', 'service', 'dogs', '-d']))).toContain(
      'UPDATE src/app.module.ts',
    );
  },
  240_000,
);

claim(
  `${page}#nest-generate`,
  'a guard is flat by default (--no-flat gives it a folder) and is registered in no module',
  () => {
    expect(actions(nestOk(project, ['g', 'guard', 'auth', '-d']))).toEqual([
      'CREATE src/auth.guard.spec.ts',
      'CREATE src/auth.guard.ts',
    ]);
    expect(actions(nestOk(project, ['g', 'guard', 'auth', '--no-flat', '-d']))).toEqual([
      'CREATE src/auth/auth.guard.spec.ts',
      'CREATE src/auth/auth.guard.ts',
    ]);
    for (const schematic of ['pipe', 'interceptor', 'filter', 'middleware']) {
      expect(
        actions(nestOk(project, ['g', schematic, 'zed', '-d'])).filter((a) =>
          a.startsWith('UPDATE'),
        ),
      ).toEqual([]);
    }
  },
  240_000,
);

claim(
  `${page}#nest-build`,
  '--webpack bundles into one dist/main.js; --tsc wins over --webpack and emits one file per source',
  () => {
    nestOk(project, ['build', '--webpack']);
    expect(listFiles(join(project, 'dist')).filter((f) => f.endsWith('.js'))).toEqual(['main.js']);
    nestOk(project, ['build', '--webpack', '--tsc']);
    expect(existsSync(join(project, 'dist', 'app.module.js'))).toBe(true);
    expect(existsSync(join(project, 'dist', 'cats.controller.js'))).toBe(true);
  },
  240_000,
);

claim(
  `${page}#nest-build`,
  '--webpackPath naming a file that does not exist fails the build',
  () => {
    const run = nestCli(project, ['build', '--webpack', '--webpackPath', 'missing.webpack.js']);
    expect(run.out).toMatch(/Cannot find module '.*missing\.webpack\.js'/);
  },
  240_000,
);

claim(
  `${page}#nest-build`,
  '--path compiles with another tsconfig file',
  () => {
    const config = readJson(join(project, 'tsconfig.build.json'));
    config.compilerOptions = {outDir: './other-dist'};
    writeFileSync(join(project, 'tsconfig.other.json'), JSON.stringify(config));
    nestOk(project, ['build', '--path', 'tsconfig.other.json']);
    expect(existsSync(join(project, 'other-dist', 'main.js'))).toBe(true);
  },
  240_000,
);

claim(
  `${page}#nest-info`,
  'nest i prints the Nest packages of the project, the CLI version and system information',
  () => {
    const run = nestOk(project, ['i']);
    expect(run.stdout).toContain('[System Information]');
    expect(run.stdout).toMatch(/Nest CLI Version : 8\.2\.8/);
    expect(run.stdout).toMatch(/common version\s+: 8\.4\.7/);
  },
  240_000,
);

claim.failure(
  `${page}#nest-add`,
  'without a version nest add installs the latest tag (npm install --save <package>@latest); a version after the name is passed on',
  async () => {
    const {freePort} = await import('../../lib');
    // A folder of its own (npm must not touch the suite's packages), and a registry that does not answer:
    // the CLI reports the command it ran when the install fails.
    const dir = tempDir('nest-add');
    try {
      writeFileSync(join(dir.dir, 'package.json'), '{"name":"x","private":true,"dependencies":{}}');
      writeFileSync(
        join(dir.dir, 'nest-cli.json'),
        '{"collection":"@nestjs/schematics","sourceRoot":"src"}',
      );
      const env = {
        npm_config_registry: `http://127.0.0.1:${await freePort()}/`,
        npm_config_fetch_retries: '0',
      };
      const latest = nestCli(dir.dir, ['add', '@nestjs/swagger'], {env});
      expect(latest.out).toContain(
        'Failed to execute command: npm install --save @nestjs/swagger@latest',
      );
      const example = readPage(page)
        .fences.find((f) => f.section === 'nest-add' && f.value.includes('nest add @'))!
        .value.split('\n')
        .find((l) => l.startsWith('nest add @'))!;
      expect(example).toBe('nest add @nestjs/azure-func-http@0.8');
      const pinned = nestCli(dir.dir, example.split(' ').slice(1), {env});
      expect(pinned.out).toContain(
        'Failed to execute command: npm install --save @nestjs/azure-func-http@0.8',
      );
    } finally {
      dir.cleanup();
    }
  },
  120_000,
);

// Review 5 (attack-cli).

claim.failure(
  `${page}#nest-generate`,
  "nest g config without --project writes undefined/nest-cli.json; the page's nest g config --project . writes ./nest-cli.json",
  () => {
    const dir = tempDir('config');
    try {
      writeFileSync(join(dir.dir, 'package.json'), '{"name":"old-project","private":true}');
      symlinkSync(nodeModules, join(dir.dir, 'node_modules'), 'dir');
      expect(actions(nestOk(dir.dir, ['g', 'config']))).toEqual(['CREATE undefined/nest-cli.json']);
      expect(existsSync(join(dir.dir, 'nest-cli.json'))).toBe(false);
      const command = readPage(page)
        .fences.find((f) => f.section === 'nest-generate' && f.value.includes('nest g config'))!
        .value.trim();
      expect(command).toBe('nest g config --project .');
      nestOk(dir.dir, command.split(' ').slice(1));
      expect(readJson(join(dir.dir, 'nest-cli.json'))).toMatchObject({sourceRoot: 'src'});
    } finally {
      dir.cleanup();
    }
  },
  120_000,
);

claim.failure(
  `${page}#nest-add`,
  'after the install, the setup step of nest add @nestjs/swagger@5 fails: the package has no schematics',
  () => {
    // What `nest add` runs once the package manager has installed the package (add.action.js addLibrary):
    // the package's nest-add schematic, here against @nestjs/swagger 5.2.1 of the suite's packages.
    const run = spawnSync(
      process.execPath,
      [
        '-e',
        `const {CollectionFactory, SchematicOption} = require('@nestjs/cli/lib/schematics');
         CollectionFactory.create('@nestjs/swagger')
           .execute('nest-add', [new SchematicOption('sourceRoot', 'src')])
           .then(() => console.log('added'), () => process.exit(1));`,
      ],
      {cwd: project, encoding: 'utf8', timeout: 60_000},
    );
    expect(run.status).toBe(1);
    const line = `${run.stdout}\n${run.stderr}`
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\[[0-9;]*m/g, '')
      .split('\n')
      .find((l) => l.includes('does not support schematics'));
    expectOutput(page, 'add-without-schematic', (line ?? '').replace(/^Error: /, ''));
  },
  120_000,
);
