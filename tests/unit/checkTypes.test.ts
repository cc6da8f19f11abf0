import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {
  buildProject,
  checkJavaScriptImports,
  collectSamples,
  createCompiler,
  exportsOf,
  fragmentOpen,
  importsOf,
  samplesDir,
  stubCode,
  validateAllowList,
} from '../../scripts/check-types.mjs';

const root = '/virtual/page/p/q/r';

/** A page made of fences: [lang, code] pairs, each after a heading line and a blank line. */
function page(...fences: [string, string][]): string {
  return fences.map(([lang, code]) => `Text\n\n\`\`\`${lang}\n${code}\n\`\`\`\n`).join('\n');
}

function project(...fences: [string, string][]) {
  return buildProject(collectSamples(page(...fences), 'docs/p.md'), root);
}

describe('check-types: samples of a page', () => {
  it('takes the TypeScript and JavaScript halves with their page lines', () => {
    const markdown = page([
      'ts',
      '@@filename(cats.service)\nexport class CatsService {}\n@@switch\nexport class CatsService {}',
    ]);
    expect(collectSamples(markdown, 'docs/p.md')).toEqual([
      {
        page: 'docs/p.md',
        filename: 'cats.service',
        lang: 'ts',
        code: 'export class CatsService {}',
        line: 5,
      },
      {
        page: 'docs/p.md',
        filename: 'cats.service',
        lang: 'js',
        code: 'export class CatsService {}',
        line: 7,
      },
    ]);
  });

  it('skips fences without markers and other languages', () => {
    const markdown = page(['ts', 'const a = 1;'], ['bash', '@@filename(x)\nls']);
    expect(collectSamples(markdown, 'docs/p.md')).toEqual([]);
  });
});

describe('check-types: the virtual project', () => {
  it('names each TypeScript half after its @@filename, keeping path segments', () => {
    const built = project(
      ['ts', '@@filename(src/cats/cats.service)\nexport class CatsService {}'],
      ['ts', '@@filename(main)\nexport {};\n@@switch\nexport {};'],
      ['js', '@@filename(only.js.half)\nexport {};'],
      ['ts', 'export const unnamed = 1;'],
    );
    expect(built.files.map((file) => file.path)).toEqual([
      `${root}/src/cats/cats.service.ts`,
      `${root}/main.ts`,
    ]);
    expect(built.stubs.size).toBe(0);
  });

  it('lets samples import each other by relative path', () => {
    const built = project(
      ['ts', "@@filename(cats/cats.module)\nimport { CatsService } from './cats.service';"],
      ['ts', '@@filename(cats/cats.service)\nexport class CatsService {}'],
      ['ts', "@@filename(app.module)\nimport { CatsModule } from './cats/cats.module';"],
    );
    expect(built.resolve('./cats.service', `${root}/cats/cats.module.ts`)).toBe(
      `${root}/cats/cats.service.ts`,
    );
    expect(built.resolve('./cats/cats.module', `${root}/app.module.ts`)).toBe(
      `${root}/cats/cats.module.ts`,
    );
    expect(built.resolve('@nestjs/common', `${root}/app.module.ts`)).toBeNull();
    expect(built.stubs.size).toBe(0);
  });

  it('gives repeated files distinct paths and resolves to the version shown last before', () => {
    const built = project(
      ['ts', '@@filename(cats.service)\nexport class CatsService {}'],
      ['ts', "@@filename(cats.controller)\nimport { CatsService } from './cats.service';"],
      ['ts', '@@filename(cats.service)\nexport class CatsService { findAll() {} }'],
      ['ts', "@@filename(cats.controller)\nimport { CatsService } from './cats.service';"],
    );
    const paths = built.files.map((file) => file.path);
    expect(paths).toEqual([
      `${root}/cats.service.ts`,
      `${root}/cats.controller.ts`,
      `${root}/cats.service.~2.ts`,
      `${root}/cats.controller.~2.ts`,
    ]);
    expect(built.resolve('./cats.service', paths[1])).toBe(paths[0]);
    expect(built.resolve('./cats.service', paths[3])).toBe(paths[2]);
  });

  it('prefers the version that exports what the import needs, else the first one after', () => {
    const built = project(
      ['ts', "@@filename(app.module)\nimport { CatsModule } from './cats.module';"],
      ['ts', '@@filename(cat.schema)\nexport class Cat {}\nexport const CatSchema = {};'],
      ['ts', '@@filename(cat.schema)\nexport const CatSchema = {};'],
      ['ts', "@@filename(cats.module)\nimport { Cat, CatSchema } from './cat.schema';"],
    );
    const paths = built.files.map((file) => file.path);
    expect(built.resolve('./cats.module', paths[0])).toBe(paths[3]);
    expect(built.resolve('./cat.schema', paths[3])).toBe(paths[1]);
  });

  it('stubs a relative import that no sample provides, with the names it imports', () => {
    const built = project([
      'ts',
      [
        '@@filename(cats.controller)',
        "import { Roles, Role as R } from './roles.decorator';",
        "import config from '../config';",
        "import * as constants from './constants';",
        "import { CatsService } from './cats.service';",
        "import { Cat } from './interfaces/cat.interface';",
        "import { Injectable } from '@nestjs/common';",
        '',
        'export class CatsController implements CatsService {',
        '  token = constants.TOKEN;',
        '  cats: Cat<string>[] = [];',
        '}',
      ].join('\n'),
    ]);
    const stub = (key: string) => built.stubs.get(`${root}/${key}.ts`);
    expect([...built.stubs.keys()].sort()).toEqual([
      '/virtual/page/p/q/config.ts',
      `${root}/cats.service.ts`,
      `${root}/constants.ts`,
      `${root}/interfaces/cat.interface.ts`,
      `${root}/roles.decorator.ts`,
    ]);
    expect(stub('roles.decorator')).toContain('export declare const Role: any;');
    expect(stub('roles.decorator')).toContain('export declare const Roles: any;');
    expect(stub('roles.decorator')).toMatch(/export type Roles<[^>]*> = any;/);
    expect(built.stubs.get('/virtual/page/p/q/config.ts')).toContain('export default __default;');
    expect(stub('constants')).toContain('export declare const TOKEN: any;');
    expect(stub('cats.service')).toMatch(/export interface CatsService<[^>]*> \{\}/);
    expect(stub('interfaces/cat.interface')).toMatch(/export type Cat<T1 = any/);
    expect(built.resolve('./roles.decorator', `${root}/cats.controller.ts`)).toBe(
      `${root}/roles.decorator.ts`,
    );
  });

  it('merges what several samples need from the same missing module', () => {
    const built = project(
      ['ts', "@@filename(a)\nimport { A } from './shared';"],
      ['ts', "@@filename(b)\nimport { B } from './shared';\nexport * from './reexported';"],
    );
    expect(built.stubs.get(`${root}/shared.ts`)).toMatch(/const A: any;[\s\S]*const B: any;/);
    expect(built.stubs.get(`${root}/reexported.ts`)).toContain('export {};');
  });

  it('wraps a fragment of class members and keeps its line mapping', () => {
    const built = project([
      'ts',
      "@@filename(cats.controller)\nimport { Get } from '@nestjs/common';\n\n@Get()\nfindAll() {\n  return this.cats;\n}",
    ]);
    const [file] = built.files;
    // The class opens after the imports.
    expect(file.fragmentAt).toBe(1);
    expect(file.code.split('\n')[1]).toBe(fragmentOpen);
    expect(file.code.endsWith('\n}')).toBe(true);
  });
});

describe('check-types: imports and exports', () => {
  it('reads named, default, namespace, dynamic and require imports', () => {
    const imports = importsOf(
      [
        "import Default, { A, B as C } from './a';",
        "import * as ns from './b';",
        "import x = require('./c');",
        "export { D } from './d';",
        'async function f() {',
        "  const { E } = await import('./e');",
        "  const F = (await import('./f')).F;",
        "  return import('./g').then((m) => m.G);",
        '}',
        'const y: ns.T = ns.value + x.member;',
      ].join('\n'),
    );
    const names = (specifier: string) => [...(imports.get(specifier)?.names ?? [])].sort();
    expect(names('./a')).toEqual(['A', 'B']);
    expect(imports.get('./a')?.default).toBe(true);
    expect(names('./b')).toEqual(['T', 'value']);
    expect(names('./c')).toEqual(['member']);
    expect(names('./d')).toEqual(['D']);
    expect(names('./e')).toEqual(['E']);
    expect(names('./f')).toEqual(['F']);
    expect(names('./g')).toEqual(['G']);
  });

  it('lists the names a module exports, or null for export *', () => {
    expect(
      [
        ...(exportsOf(
          'export class A {}\nexport const b = 1, c = 2;\nexport interface D {}\nexport default 1;\nconst e = 1;\nexport { e as E };',
        ) ?? []),
      ].sort(),
    ).toEqual(['A', 'D', 'E', 'b', 'c', 'default']);
    expect(exportsOf("export * from './x';")).toBeNull();
  });

  it('writes an empty stub when nothing is needed', () => {
    expect(stubCode({names: new Set(), default: false, implemented: new Set()})).toMatch(
      /export \{\};\n$/,
    );
  });
});

describe('check-types: JavaScript halves', () => {
  it('reports names that a @nestjs package does not export at run time', () => {
    const [sample] = collectSamples(
      page([
        'ts',
        [
          '@@filename(cats.controller)',
          'export class A {}',
          '@@switch',
          "import { Controller, Dependencies } from '@nestjs/common';",
          "import { Type } from '@nestjs/common';",
          "import { nothing } from 'other';",
          "import { X } from '@nestjs/missing';",
        ].join('\n'),
      ]),
      'docs/p.md',
    ).filter((candidate) => candidate.lang === 'js');
    const exportsOfModule = (module: string) =>
      module === '@nestjs/common'
        ? new Set(['Controller', 'Dependencies'])
        : `cannot load ${module}`;
    expect(
      checkJavaScriptImports([sample], exportsOfModule).map(({line, message}) => ({
        line,
        message,
      })),
    ).toEqual([
      {line: 8, message: "JavaScript: 'Type' is not exported by @nestjs/common at run time"},
      {line: 10, message: 'cannot load @nestjs/missing'},
    ]);
  });
});

describe('check-types: allow-list', () => {
  const entry = {page: 'docs/p.md', filename: 'cats.service', reason: 'partial on purpose'};

  it('accepts entries with page, filename and a one-line reason', () => {
    expect(validateAllowList([entry])).toEqual({entries: [entry], errors: []});
    expect(validateAllowList([])).toEqual({entries: [], errors: []});
  });

  it('rejects entries without a reason, with a multi-line one, or listed twice', () => {
    const {entries, errors} = validateAllowList([
      {page: 'docs/p.md', filename: 'a'},
      {page: 'docs/p.md', filename: 'b', reason: '  '},
      {page: 'docs/p.md', filename: 'c', reason: 'one\ntwo'},
      entry,
      entry,
    ]);
    expect(entries).toEqual([entry]);
    expect(errors).toHaveLength(4);
    expect(errors[0]).toMatch(/entry 1 .*no reason/);
    expect(errors[1]).toMatch(/entry 2 .*no reason/);
    expect(errors[2]).toMatch(/entry 3 .*one line/);
    expect(errors[3]).toMatch(/entry 5 .*listed twice/);
  });

  it('rejects a file that is not an array of entries', () => {
    expect(validateAllowList({}).errors).toHaveLength(1);
    expect(validateAllowList(['x']).errors).toEqual(['allow-list entry 1: not an object']);
    expect(validateAllowList([{filename: 'a', reason: 'r'}]).errors[0]).toMatch(/"page"/);
    expect(validateAllowList([{...entry, extra: 1}]).errors[0]).toMatch(/unknown key/);
  });
});

// Compiles against tools/samples' packages; `npm run check:types` installs them
// (and `npm test` runs it before the unit tests).
describe('check-types: compiling a page', () => {
  beforeAll(() => {
    if (!existsSync(join(samplesDir, 'node_modules', 'typescript'))) {
      throw new Error('tools/samples is not installed: run `npm run check:types` once first.');
    }
  });

  it('reports errors on page lines, through imports between samples and stubs', () => {
    const compiler = createCompiler(samplesDir);
    const markdown = page(
      [
        'ts',
        [
          '@@filename(cats.service)',
          "import { Injectable } from '@nestjs/common';",
          "import { Cat } from './interfaces/cat.interface';",
          '',
          '@Injectable()',
          'export class CatsService {',
          '  findAll(): Cat[] {',
          '    return [];',
          '  }',
          '}',
        ].join('\n'),
      ],
      [
        'ts',
        [
          '@@filename(cats.controller)',
          "import { Controller, Get } from '@nestjs/common';",
          "import { CatsService } from './cats.service';",
          '',
          "@Controller('cats')",
          'export class CatsController {',
          '  constructor(private readonly catsService: CatsService) {}',
          '',
          '  @Get()',
          '  findAll() {',
          '    return this.catsService.findEverything();',
          '  }',
          '}',
        ].join('\n'),
      ],
    );
    const built = buildProject(
      collectSamples(markdown, 'docs/p.md'),
      `${compiler.virtualRoot}/test/p/q/r`,
    );
    const results = compiler.compile(built);
    expect(results.map((result) => result.errors.length)).toEqual([0, 1]);
    // Fence 2 opens on line 18 and its marker is line 19: the call is on line 29.
    expect(results[1].errors[0]).toEqual({
      line: 29,
      message: "TS2339: Property 'findEverything' does not exist on type 'CatsService'.",
    });
  }, 120_000);
});
