import {describe, expect, it} from 'vitest';
import {buildProject} from './project.mjs';
import {collectSamples, fragmentOpen} from './samples.mjs';
import {page} from './testPage';

const root = '/virtual/page/p/q/r';

function project(...fences: [string, string][]) {
  return buildProject(collectSamples(page(...fences), 'docs/p.md'), root);
}

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
