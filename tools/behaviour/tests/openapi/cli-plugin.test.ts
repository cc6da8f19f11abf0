/**
 * The plugin is run the way the Nest CLI runs it: one TypeScript program (with type information), the
 * plugin's `before` transformer from @nestjs/swagger/plugin, then the emitted files are required and the
 * document built. The bench's TypeScript is 4.9, so these tests also show what the page's
 * "TypeScript version" warning says: decorators are invisible to the 5.x plugin from TypeScript 4.8 on.
 */
import {beforeAll, describe, expect} from 'vitest';
import {mkdirSync, writeFileSync} from 'node:fs';
import {dirname, join, resolve} from 'node:path';
import {createRequire} from 'node:module';
import {claim, samples, fragment} from '../../lib';
import {documentFor, schemasOf} from './_support';

const page = 'docs/openapi/cli-plugin.md';
const requireHere = createRequire(resolve(__dirname, '../../package.json'));
const ts = requireHere('typescript') as typeof import('typescript');
const plugin = requireHere('@nestjs/swagger/plugin');

let runs = 0;
function compileWithPlugin(
  files: Record<string, string>,
  options: Record<string, unknown> = {},
): (name: string) => any {
  const dir = resolve(__dirname, '../../.run', `openapi-plugin-${process.pid}-${runs++}`);
  const names = Object.entries(files).map(([name, source]) => {
    const file = join(dir, `${name}.ts`);
    mkdirSync(dirname(file), {recursive: true});
    writeFileSync(file, source);
    return file;
  });
  const program = ts.createProgram(names, {
    module: ts.ModuleKind.CommonJS,
    target: ts.ScriptTarget.ES2019,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    esModuleInterop: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2019.d.ts'],
    outDir: dir,
    rootDir: dir,
  });
  program.emit(undefined, undefined, undefined, undefined, {
    before: [plugin.before(options, program)],
  });
  const load = createRequire(join(dir, 'index.js'));
  return (name: string) => load(`./${name}.js`);
}

const source = (name: string, pick: number) =>
  samples(page, {pick: {[name]: pick}}).sources.get(name)!;
const catSize = "export enum CatSize { Small = 'small', Large = 'large' }";
const owner = 'export class Owner {\n  name: string;\n}';

describe('one plugin compilation of the page samples', () => {
  let load: (name: string) => any;
  beforeAll(() => {
    load = compileWithPlugin({
      'plain/create-cat.dto': source('create-cat.dto', 2),
      'inferred/cat.entity': source('cat.entity', 1),
      'inferred/cat-size.enum': catSize,
      'inferred/owner.entity': owner,
      'shim/create-cat.dto': source('create-cat.dto', 3),
      'hidden/cat.entity': source('cat.entity', 2),
      'api/cats.controller': source('cats.controller', 1)
        .replace("from './cats.service'", "from './cats.service'")
        .replace("from './dto/create-cat.dto'", "from '../plain/create-cat.dto'")
        .replace("from './entities/cat.entity'", "from '../inferred/cat.entity'"),
      'api/cats.service':
        'export class CatsService { create(dto: unknown): Promise<any> { return Promise.resolve(dto); } findAll(): Promise<any[]> { return Promise.resolve([]); } }',
      'plain/initializer.dto': 'export class InitializerDto {\n  vaccinated = false;\n}',
    });
  });

  claim(
    `${page}#overview`,
    'a DTO with nothing but TypeScript gets the same schema as the hand-decorated one',
    async () => {
      const {CreateCatDto: manual} = samples(page, {pick: {'create-cat.dto': 1}}).require(
        'create-cat.dto',
      );
      const expected = (await schemasOf(manual)).CreateCatDto;
      const generated = (await schemasOf(load('plain/create-cat.dto').CreateCatDto)).CreateCatDto;
      expect(generated).toEqual(expected);
    },
  );

  claim(
    `${page}#what-it-automates`,
    'the entity: name required string, size enum, vaccinated boolean default false, owner optional $ref, toys string array default []',
    async () => {
      const schemas = await schemasOf(load('inferred/cat.entity').Cat);
      expect(schemas.Cat.properties).toEqual({
        name: {type: 'string'},
        size: {type: 'string', enum: ['small', 'large']},
        vaccinated: {type: 'boolean', default: false},
        owner: {$ref: '#/components/schemas/Owner'},
        toys: {type: 'array', items: {type: 'string'}, default: []},
      });
      expect(schemas.Cat.required).toEqual(['name', 'size', 'vaccinated', 'toys']);
    },
  );

  claim(
    `${page}#what-it-automates`,
    'the emitted class has a static _OPENAPI_METADATA_FACTORY',
    () => {
      const {Cat} = load('inferred/cat.entity');
      const metadata = Cat._OPENAPI_METADATA_FACTORY();
      expect(Object.keys(metadata)).toEqual(['name', 'size', 'vaccinated', 'owner', 'toys']);
      expect(metadata.owner.required).toBe(false);
      expect(metadata.toys.type()).toEqual([String]);
    },
  );

  claim(
    `${page}#what-it-automates`,
    'without a type annotation, an initialized property is documented as a generic object',
    async () => {
      const schemas = await schemasOf(load('plain/initializer.dto').InitializerDto);
      expect(schemas.InitializerDto.properties.vaccinated).toEqual({
        type: 'object',
        default: false,
      });
    },
  );

  claim(
    `${page}#using-the-cli-plugin`,
    'with TypeScript 4.8+, classValidatorShim has no effect: no maxLength/minimum/maximum from the validators',
    async () => {
      expect(ts.version.startsWith('4.9')).toBe(true);
      const schemas = await schemasOf(load('shim/create-cat.dto').CreateCatDto);
      expect(schemas.CreateCatDto.properties).toEqual({
        name: {type: 'string'},
        age: {type: 'number'},
      });
    },
  );

  claim(
    `${page}#using-the-cli-plugin`,
    'with TypeScript 4.8+, @ApiHideProperty() no longer hides a plugin-documented property',
    async () => {
      const schemas = await schemasOf(load('hidden/cat.entity').Cat);
      expect(Object.keys(schemas.Cat.properties)).toContain('internalNotes');
    },
  );

  claim(
    `${page}#using-the-cli-plugin`,
    'with TypeScript 4.8+, route handlers get no generated @ApiResponse()',
    async () => {
      const document = await documentFor([load('api/cats.controller').CatsController], {
        providers: [load('api/cats.service').CatsService],
      });
      expect(document.paths['/cats'].post.responses).toEqual({'201': {description: ''}});
      expect(document.paths['/cats'].get.responses).toEqual({'200': {description: ''}});
    },
  );

  claim(
    `${page}#comments-introspection`,
    'with introspectComments, property comments still become description and example',
    async () => {
      const loadWithComments = compileWithPlugin(
        {'c/create-cat.dto': fragmentSource('comments-introspection', 'create-cat.dto')},
        {introspectComments: true},
      );
      const schemas = await schemasOf(loadWithComments('c/create-cat.dto').CreateCatDto);
      expect(schemas.CreateCatDto.properties).toEqual({
        name: {
          type: 'string',
          description: 'The name the shelter uses for the cat',
          example: 'Tom',
        },
        age: {type: 'number', description: 'Age in whole years', example: 3},
      });
    },
  );
});

function fragmentSource(section: string, file: string): string {
  const fence = samples(page, {under: section}).sources.get(file);
  if (!fence) throw new Error(`no ${file} under ${section}`);
  void fragment;
  return fence;
}
