import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {samplesDir} from './cli.mjs';
import {createCompiler} from './compiler.mjs';
import {buildProject} from './project.mjs';
import {collectSamples} from './samples.mjs';
import {page} from './testPage';

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
