import {expect} from 'vitest';
import {claim, samples, fragment, nest} from '../../lib';

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
