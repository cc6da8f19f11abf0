import {describe, expect, it} from 'vitest';
import type {CodeLink} from '../codeLinks';
import {sampleImports, sampleLinks, signatureLinks} from './sampleLinks';

/** Every export of `@nestjs/common` and `@nestjs/core` "exists" here, nothing else. */
const resolve = (pkg: string, name: string) =>
  pkg === '@nestjs/common' || pkg === '@nestjs/core' ? `/api/${pkg.slice(8)}#${name}` : undefined;

/** The linked text of each link, as `line:column name -> url`. */
function show(code: string, links: readonly CodeLink[]): string[] {
  const lines = code.split('\n').filter((line) => !/^\s*\/\/\s*highlight-/.test(line));
  return links.map(
    (link) =>
      `${link.line}:${link.column} ${lines[link.line].slice(link.column, link.column + link.length)} -> ${link.url}`,
  );
}

describe('sampleLinks', () => {
  it('links the imported names on the import line and where the code uses them', () => {
    const code = [
      "import { Controller, Get, Post, Body } from '@nestjs/common';",
      "import { CatsService } from './cats.service';",
      '',
      "@Controller('cats')",
      'export class CatsController {',
      '  constructor(private catsService: CatsService) {}',
      '',
      '  @Post()',
      '  create(@Body() dto: CreateCatDto) {}',
      '',
      '  @Get()',
      '  findAll() {}',
      '}',
    ].join('\n');
    expect(show(code, sampleLinks(code, 'ts', resolve))).toEqual([
      '0:9 Controller -> /api/common#Controller',
      '0:21 Get -> /api/common#Get',
      '0:26 Post -> /api/common#Post',
      '0:32 Body -> /api/common#Body',
      '3:1 Controller -> /api/common#Controller',
      '7:3 Post -> /api/common#Post',
      '8:10 Body -> /api/common#Body',
      '10:3 Get -> /api/common#Get',
    ]);
  });

  it('leaves comments, strings, property names and other packages alone', () => {
    const code = [
      "import { Get, Injectable } from '@nestjs/common';",
      "import { Cron } from '@nestjs/schedule';",
      '// Get is mentioned here, and Injectable too',
      "const label = 'Get Injectable';",
      'const route = `${label} Get`;',
      'const handlers = { Get: 1, Injectable: 2 };',
      'handlers.Get;',
      'class Routes { Get() {} Injectable = 1; }',
      '@Cron("* * * * *")',
      'export class Job {}',
    ].join('\n');
    expect(show(code, sampleLinks(code, 'ts', resolve))).toEqual([
      '0:9 Get -> /api/common#Get',
      '0:14 Injectable -> /api/common#Injectable',
    ]);
  });

  it('does not link a local name that shadows an import', () => {
    const code = [
      "import { Logger, Module } from '@nestjs/common';",
      'function make(Logger: unknown) {',
      '  return Logger;',
      '}',
      'function other() {',
      '  const Module = 1;',
      '  return Module + 1;',
      '}',
      'class Box<Logger> { value?: Logger; }',
      'export const logger = new Logger();',
    ].join('\n');
    expect(show(code, sampleLinks(code, 'ts', resolve))).toEqual([
      '0:9 Logger -> /api/common#Logger',
      '0:17 Module -> /api/common#Module',
      '9:26 Logger -> /api/common#Logger',
    ]);
  });

  it('follows renamed and namespace imports, and require() in JavaScript', () => {
    const ts = [
      "import { Get as G } from '@nestjs/common';",
      "import * as core from '@nestjs/core';",
      '@G()',
      'class A {}',
      'core.NestFactory.create(A);',
    ].join('\n');
    expect(show(ts, sampleLinks(ts, 'ts', resolve))).toEqual([
      '0:9 Get -> /api/common#Get',
      '2:1 G -> /api/common#Get',
      '4:5 NestFactory -> /api/core#NestFactory',
    ]);
    const js = [
      "const { Controller, Bind, Param } = require('@nestjs/common');",
      '',
      "@Controller('cats')",
      'export class CatsController {',
      "  @Bind(Param('id'))",
      '  findOne(id) {}',
      '}',
    ].join('\n');
    expect(show(js, sampleLinks(js, 'js', resolve))).toEqual([
      '0:8 Controller -> /api/common#Controller',
      '0:20 Bind -> /api/common#Bind',
      '0:26 Param -> /api/common#Param',
      '2:1 Controller -> /api/common#Controller',
      '4:3 Bind -> /api/common#Bind',
      '4:8 Param -> /api/common#Param',
    ]);
  });

  it('reads class-member fragments and counts lines as shown (no highlight comments)', () => {
    const code = [
      "import { Get, Param } from '@nestjs/common';",
      '',
      '// highlight-next-line',
      "@Get(':id')",
      "findOne(@Param('id') id: string) {",
      '  return id;',
      '}',
    ].join('\n');
    expect(show(code, sampleLinks(code, 'ts', resolve))).toEqual([
      '0:9 Get -> /api/common#Get',
      '0:14 Param -> /api/common#Param',
      '2:1 Get -> /api/common#Get',
      '3:9 Param -> /api/common#Param',
    ]);
  });

  it('links nothing without imports of the reference, and what it can in broken code', () => {
    expect(sampleLinks('@Get()\nfindAll() {}', 'ts', resolve)).toEqual([]);
    // A sample that does not parse still links what the parser recovered.
    expect(
      show(
        "import { Get } from '@nestjs/common';\n@Get(",
        sampleLinks("import { Get } from '@nestjs/common';\n@Get(", 'ts', resolve),
      ),
    ).toEqual(['0:9 Get -> /api/common#Get', '1:1 Get -> /api/common#Get']);
  });

  it('lists the imports of a sample', () => {
    expect(
      sampleImports(
        "import { Get } from '@nestjs/common';\nimport { x } from 'y';\nimport * as c from '@nestjs/core';",
        'ts',
      ),
    ).toEqual([
      {local: 'Get', package: '@nestjs/common', imported: 'Get'},
      {local: 'c', package: '@nestjs/core', imported: null},
    ]);
  });
});

describe('signatureLinks', () => {
  it('links the names the checker resolved, not the declared name or member names', () => {
    const code = [
      'class ValidationPipe implements PipeTransform<any> {',
      '  constructor(options?: ValidationPipeOptions);',
      '  PipeTransform: number;',
      '  transform(value: any, metadata: ArgumentMetadata): Promise<any>;',
      '}',
    ].join('\n');
    const links = signatureLinks(
      code,
      {
        PipeTransform: '@nestjs/common#PipeTransform',
        ValidationPipeOptions: '@nestjs/common#ValidationPipeOptions',
        ArgumentMetadata: '@nestjs/common#ArgumentMetadata',
      },
      resolve,
    );
    expect(show(code, links)).toEqual([
      '0:32 PipeTransform -> /api/common#PipeTransform',
      '1:24 ValidationPipeOptions -> /api/common#ValidationPipeOptions',
      '3:34 ArgumentMetadata -> /api/common#ArgumentMetadata',
    ]);
  });
});
