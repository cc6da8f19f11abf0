import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {expect} from 'vitest';
import {
  applyEdits,
  claim,
  compileModule,
  expectOutput,
  fragment,
  nest,
  samples,
  typeErrors,
} from '../../lib';
import {compileInto, plain, runScript} from './_support';

const {Module} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const page = 'docs/fundamentals/circular-dependency.md';
const options: any = {logger: false, abortOnError: false};

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#forward-reference`,
    `CatsService and CommonService, each with forwardRef() to the other, are both created and receive each other (${lang})`,
    async () => {
      const set = samples(page, {lang});
      const {CatsService} = set.require('cats.service');
      const {CommonService} = set.require('common.service');
      @Module({providers: [CatsService, CommonService]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, options);
      await app.init();
      expect(app.get(CatsService).commonService).toBe(app.get(CommonService));
      expect(app.get(CommonService).catsService).toBe(app.get(CatsService));
      await app.close();
    },
  );
}

for (const lang of ['ts', 'js'] as const) {
  // tsc (the Nest CLI's compiler) and the Babel-style @Dependencies() record `undefined` for the class that is
  // still loading: Nest names it "dependency". A file-by-file transpiler (this suite's, like ts-jest with
  // isolatedModules) writes a guard that falls back to `Object`.
  const unknown = lang === 'js' ? 'dependency' : 'Object';
  claim(
    `${page}#circular-dependency`,
    `without forwardRef(), the file cycle fails with "Nest can't resolve dependencies of the CommonService (?)" (${lang}: argument ${unknown})`,
    async () => {
      const set = samples(page, {
        lang,
        edit:
          lang === 'ts'
            ? {
                'cats.service': [['@Inject(forwardRef(() => CommonService))', '']],
                'common.service': [['@Inject(forwardRef(() => CatsService))', '']],
              }
            : {
                'cats.service': [['forwardRef(() => CommonService)', 'CommonService']],
                'common.service': [['forwardRef(() => CatsService)', 'CatsService']],
              },
      });
      // cats.service is loaded first, so CatsService is still undefined while common.service is evaluated.
      const {CatsService} = set.require('cats.service');
      const {CommonService} = set.require('common.service');
      @Module({providers: [CatsService, CommonService]})
      class AppModule {}
      const error = await NestFactory.create(AppModule, options).then(
        () => null,
        (e: Error) => e,
      );
      expect(error?.message.split('\n')[0]).toBe(
        `Nest can't resolve dependencies of the CommonService (?). Please make sure that the argument ${unknown} at index [0] is available in the AppModule context.`,
      );
    },
  );
}

function moduleFiles(withForwardRef: boolean) {
  const common = fragment(page, 'module-forward-reference', 'export class CommonModule').value;
  const cats = fragment(page, 'module-forward-reference', 'export class CatsModule').value;
  const strip = (source: string, name: string) =>
    withForwardRef ? source : source.replace(`forwardRef(() => ${name})`, name);
  return {'common.module': strip(common, 'CatsModule'), 'cats.module': strip(cats, 'CommonModule')};
}

claim(
  `${page}#module-forward-reference`,
  "CommonModule and CatsModule importing each other through forwardRef() on both sides start, and each module's service is injectable in the other",
  async () => {
    const set = samples(page, {files: moduleFiles(true)});
    const {CommonModule} = set.require('common.module');
    const {CatsService} = set.require('cats.service');
    const {CommonService} = set.require('common.service');
    @Module({imports: [CommonModule]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    expect(app.get(CatsService).commonService).toBe(app.get(CommonService));
    await app.close();
  },
);

claim(
  `${page}#circular-dependency`,
  'without forwardRef() in imports: "Nest cannot create the CatsModule instance. The module at index [0] of the CatsModule "imports" array is undefined", a circular dependency listed first',
  async () => {
    const set = samples(page, {files: moduleFiles(false)});
    const {CommonModule} = set.require('common.module');
    @Module({imports: [CommonModule]})
    class AppModule {}
    const error = await NestFactory.create(AppModule, options).then(
      () => null,
      (e: Error) => e,
    );
    const lines = error!.message.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      'Nest cannot create the CatsModule instance.',
      'The module at index [0] of the CatsModule "imports" array is undefined.',
      '',
      'Potential causes:',
      '- A circular dependency between modules. Use forwardRef() to avoid it. Read more: https://docs.nestjs.com/fundamentals/circular-dependency',
    ]);
  },
);

const tokenCycle = () => fragment(page, 'cycles-through-string-or-symbol-tokens', 'OWNERS').value;

claim.failure(
  `${page}#cycles-through-string-or-symbol-tokens`,
  'the CATS/OWNERS token cycle is never reported: main.ts prints "Starting Nest application..." and the process ends with exit code 0',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'behaviour-cycle-'));
    try {
      compileInto(dir, 'app.module', tokenCycle());
      const result = await runScript(
        dir,
        'main.js',
        `
const { NestFactory } = require('@nestjs/core');
const { AppModule } = require('./app.module');
async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  await app.listen(0);
  console.log('listening');
}
bootstrap();
`,
      );
      const shown = `${plain(result.stdout)}exit code ${result.code}`;
      expect(result.stderr).toBe('');
      const mask: [RegExp, string][] = [[/\[Nest\] \d+ +- .*? +LOG/g, '[Nest] PID - DATE LOG']];
      expectOutput(page, 'token-cycle', shown, mask);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

claim.failure(
  `${page}#cycles-through-string-or-symbol-tokens`,
  'with something else keeping the process alive, the same cycle leaves NestFactory.create() pending: no error, no rejection',
  async () => {
    const {AppModule} = compileModule(tokenCycle(), 'token-cycle.module');
    const outcome = await Promise.race([
      NestFactory.create(AppModule, options).then(
        () => 'created',
        (e: Error) => `rejected: ${e.message}`,
      ),
      new Promise((r) => setTimeout(() => r('still pending after 1 s'), 1000)),
    ]);
    expect(outcome).toBe('still pending after 1 s');
  },
);

claim.failure(
  `${page}#cycles-through-string-or-symbol-tokens`,
  'two factory providers whose inject arrays name each other hang the same way',
  async () => {
    @Module({
      providers: [
        {provide: 'CATS', useFactory: (owners: unknown) => ({owners}), inject: ['OWNERS']},
        {provide: 'OWNERS', useFactory: (cats: unknown) => ({cats}), inject: ['CATS']},
      ],
    })
    class FactoryCycleModule {}
    const outcome = await Promise.race([
      NestFactory.create(FactoryCycleModule, options).then(
        () => 'created',
        (e: Error) => `rejected: ${e.message}`,
      ),
      new Promise((r) => setTimeout(() => r('still pending after 1 s'), 1000)),
    ]);
    expect(outcome).toBe('still pending after 1 s');
  },
);

claim(
  `${page}#cycles-through-string-or-symbol-tokens`,
  'forwardRef(() => OWNERS) on a token resolves the cycle of class providers: both instances are created and receive each other',
  async () => {
    const source = applyEdits('token-cycle', tokenCycle(), [
      [
        "import { Inject, Injectable, Module } from '@nestjs/common';",
        "import { forwardRef, Inject, Injectable, Module } from '@nestjs/common';",
      ],
      ['@Inject(OWNERS)', '@Inject(forwardRef(() => OWNERS))'],
    ]);
    const {AppModule} = compileModule(source, 'token-cycle-fixed.module');
    const app = await NestFactory.create(AppModule, options);
    expect(app.get('CATS').owners).toBe(app.get('OWNERS'));
    expect(app.get('OWNERS').cats).toBe(app.get('CATS'));
    await app.close();
  },
);

claim(
  `${page}#cycles-through-string-or-symbol-tokens`,
  "a factory's inject array does not accept forwardRef() (TS2322), and at run time the factory would receive null",
  async () => {
    const errors = typeErrors({
      'factory-cycle': `
import { forwardRef, Module } from '@nestjs/common';
@Module({
  providers: [{ provide: 'CATS', useFactory: (owners: unknown) => ({ owners }), inject: [forwardRef(() => 'OWNERS')] }],
})
export class CatsModule {}
`,
    });
    expect(errors.map((e) => e.code)).toEqual(['TS2322']);
    const {forwardRef} = nest('@nestjs/common');
    @Module({
      providers: [
        {
          provide: 'CATS',
          useFactory: (owners: unknown) => ({owners}),
          inject: [forwardRef(() => 'OWNERS')],
        },
        {
          provide: 'OWNERS',
          useFactory: (cats: unknown) => ({cats}),
          inject: [forwardRef(() => 'CATS')],
        },
      ],
    })
    class FactoryCycleModule {}
    const app = await NestFactory.create(FactoryCycleModule, options);
    expect(app.get('CATS')).toEqual({owners: null});
    await app.close();
  },
);
