import {expect} from 'vitest';
import {claim, samples, compileModule, nest, memoryLogger, freePort} from '../../lib';
import {tcpMicroservice} from './_support';

const {Module, ValidationPipe} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {Transport, ClientProxyFactory, RpcException} = nest('@nestjs/microservices');
const {lastValueFrom} = nest('rxjs');
const page = 'docs/microservices/pipes.md';
const log = memoryLogger();

/** The DTO the page imports (not shown on the page): class-validator decorators as in the Validation chapter. */
const dto = {
  ts: `import { IsInt, IsString } from 'class-validator';\nexport class CreateCatDto {\n  @IsString() name: string;\n  @IsInt() age: number;\n}\n`,
  js: `import { IsInt, IsString } from 'class-validator';\nexport class CreateCatDto {}\nIsString()(CreateCatDto.prototype, 'name');\nIsInt()(CreateCatDto.prototype, 'age');\n`,
};

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#binding-pipes`,
    `ValidationPipe with exceptionFactory: RpcException: the caller's observable fails with the ValidationError array (${lang})`,
    async () => {
      const {CatsController} = samples(page, {
        lang,
        files: {'dto/create-cat.dto': dto[lang]},
      }).require('cats.controller');
      @Module({controllers: [CatsController]})
      class AppModule {}
      const service = await tcpMicroservice(AppModule, undefined, log);
      try {
        const errors: any = await lastValueFrom(
          service.client.send({cmd: 'create_cat'}, {name: 3, age: 'old'}),
        ).catch((e: unknown) => e);
        expect(Array.isArray(errors)).toBe(true);
        expect(errors.map((e: any) => [e.property, e.constraints])).toEqual([
          ['name', {isString: 'name must be a string'}],
          ['age', {isInt: 'age must be an integer number'}],
        ]);
        expect(
          await lastValueFrom(service.client.send({cmd: 'create_cat'}, {name: 'Tom', age: 3})),
        ).toEqual({created: true, name: 'Tom'});
      } finally {
        await service.close();
      }
    },
  );
}

claim(
  `${page}#binding-pipes`,
  'ParseIntPipe throws an HTTP exception (the caller sees Internal server error) unless given an exceptionFactory that returns an RpcException',
  async () => {
    const {Parse} = compileModule(
      `
import { Controller, ParseIntPipe } from '@nestjs/common';
import { MessagePattern, Payload, RpcException } from '@nestjs/microservices';
@Controller()
export class Parse {
  @MessagePattern('plain') plain(@Payload(new ParseIntPipe()) id: number) { return id; }
  @MessagePattern('rpc') rpc(@Payload(new ParseIntPipe({ exceptionFactory: (message) => new RpcException(message) })) id: number) { return id; }
}
`,
      'pipes-parse',
    );
    @Module({controllers: [Parse]})
    class ParseModule {}
    const service = await tcpMicroservice(ParseModule, undefined, log);
    try {
      await expect(lastValueFrom(service.client.send('plain', 'seven'))).rejects.toEqual({
        status: 'error',
        message: 'Internal server error',
      });
      await expect(lastValueFrom(service.client.send('rpc', 'seven'))).rejects.toEqual({
        status: 'error',
        message: 'Validation failed (numeric string is expected)',
      });
      expect(await lastValueFrom(service.client.send('rpc', '7'))).toBe(7);
    } finally {
      await service.close();
    }
  },
);

const validated = () =>
  compileModule(
    `
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { IsString } from 'class-validator';
class CreateCatDto { @IsString() name!: string; }
@Controller()
export class Validated { @MessagePattern('create') create(@Payload() dto: CreateCatDto) { return 'accepted'; } }
`,
    'pipes-validated',
  ).Validated;

const rpcPipe = () =>
  new ValidationPipe({exceptionFactory: (errors: unknown) => new RpcException(errors)});

claim(
  `${page}#global-pipes`,
  'useGlobalPipes() on the microservice instance applies to every handler',
  async () => {
    @Module({controllers: [validated()]})
    class GlobalModule {}
    const service = await tcpMicroservice(
      GlobalModule,
      (app) => app.useGlobalPipes(rpcPipe()),
      log,
    );
    try {
      const errors: any = await lastValueFrom(service.client.send('create', {name: 1})).catch(
        (e: unknown) => e,
      );
      expect(errors[0].constraints).toEqual({isString: 'name must be a string'});
    } finally {
      await service.close();
    }
  },
);

claim(
  `${page}#global-pipes`,
  "a hybrid app's global pipes reach the connected microservice only with inheritAppConfig: true and when registered before connectMicroservice(); useGlobalPipes() on the connected instance comes too late",
  async () => {
    const outcome: Record<string, string> = {};
    for (const mode of ['plain', 'inherit', 'inherit-late', 'own'] as const) {
      @Module({controllers: [validated()]})
      class HybridModule {}
      const app = await NestFactory.create(HybridModule, {logger: log.logger});
      if (mode !== 'inherit-late') app.useGlobalPipes(rpcPipe());
      const port = await freePort();
      const micro = app.connectMicroservice(
        {transport: Transport.TCP, options: {host: '127.0.0.1', port}},
        {inheritAppConfig: mode.startsWith('inherit')},
      );
      if (mode === 'inherit-late') app.useGlobalPipes(rpcPipe());
      if (mode === 'own') micro.useGlobalPipes(rpcPipe());
      await app.startAllMicroservices();
      await app.init();
      const client = ClientProxyFactory.create({
        transport: Transport.TCP,
        options: {host: '127.0.0.1', port},
      });
      const result = await lastValueFrom(client.send('create', {name: 1})).then(
        (value: unknown) => String(value),
        () => 'rejected',
      );
      outcome[mode] = result;
      client.close();
      await app.close();
    }
    expect(outcome).toEqual({
      plain: 'accepted',
      inherit: 'rejected',
      'inherit-late': 'accepted',
      own: 'accepted',
    });
  },
);

async function catsService(lang: 'ts' | 'js', edit?: Record<string, [string, string][]>) {
  const {CatsController} = samples(page, {
    lang,
    files: {'dto/create-cat.dto': dto[lang]},
    ...(edit ? {edit} : {}),
  }).require('cats.controller');
  @Module({controllers: [CatsController]})
  class AppModule {}
  return tcpMicroservice(AppModule, undefined, log);
}

claim.abuse(
  `${page}#binding-pipes`,
  "JavaScript half: without expectedType the pipe lets { name: 3 } through unchecked; with the page's expectedType it is rejected",
  async () => {
    const unchecked = await catsService('js', {
      'cats.controller': [['      expectedType: CreateCatDto,\n', '']],
    });
    try {
      expect(await lastValueFrom(unchecked.client.send({cmd: 'create_cat'}, {name: 3}))).toEqual({
        created: true,
        name: 3,
      });
    } finally {
      await unchecked.close();
    }
    const checked = await catsService('js');
    try {
      const errors: any = await lastValueFrom(
        checked.client.send({cmd: 'create_cat'}, {name: 3}),
      ).catch((e: unknown) => e);
      expect(errors.map((e: any) => e.property)).toEqual(['name', 'age']);
    } finally {
      await checked.close();
    }
  },
);

claim.abuse(
  `${page}#binding-pipes`,
  'a payload that is not an object (a string, an array, a number) is rejected with an entry for each property of the DTO (TS and JS)',
  async () => {
    for (const lang of ['ts', 'js'] as const) {
      const service = await catsService(lang);
      try {
        for (const payload of ['Tom', [1, 2], 42]) {
          const errors: any = await lastValueFrom(
            service.client.send({cmd: 'create_cat'}, payload),
          ).catch((e: unknown) => e);
          expect(
            errors.map((e: any) => e.property),
            `${lang} ${JSON.stringify(payload)}`,
          ).toEqual(['name', 'age']);
        }
      } finally {
        await service.close();
      }
    }
  },
);

claim.abuse(
  `${page}#binding-pipes`,
  "an undeclared isAdmin property reaches the handler through the page's pipe; whitelist: true strips it, forbidNonWhitelisted: true rejects the message",
  async () => {
    const shownOptions = samples(page).sources.get('cats.controller')!;
    expect(shownOptions).toContain('exceptionFactory: (errors) => new RpcException(errors),');
    (globalThis as any).__pipesRpc = RpcException;
    const {Echo} = compileModule(
      `
import { Controller, UsePipes, ValidationPipe } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { IsInt, IsString } from 'class-validator';
const RpcException = (globalThis as any).__pipesRpc;
class CreateCatDto { @IsString() name: string; @IsInt() age: number; }
const factory = (errors: unknown) => new RpcException(errors);
@Controller()
export class Echo {
  @UsePipes(new ValidationPipe({ exceptionFactory: factory }))
  @MessagePattern('as_shown') asShown(@Payload() dto: CreateCatDto) { return dto; }
  @UsePipes(new ValidationPipe({ exceptionFactory: factory, whitelist: true }))
  @MessagePattern('whitelist') whitelist(@Payload() dto: CreateCatDto) { return dto; }
  @UsePipes(new ValidationPipe({ exceptionFactory: factory, whitelist: true, forbidNonWhitelisted: true }))
  @MessagePattern('forbid') forbid(@Payload() dto: CreateCatDto) { return dto; }
}
`,
      'pipes-echo',
    );
    @Module({controllers: [Echo]})
    class EchoModule {}
    const service = await tcpMicroservice(EchoModule, undefined, log);
    const payload = {name: 'Tom', age: 3, isAdmin: true};
    try {
      expect(await lastValueFrom(service.client.send('as_shown', payload))).toEqual(payload);
      expect(await lastValueFrom(service.client.send('whitelist', payload))).toEqual({
        name: 'Tom',
        age: 3,
      });
      const errors: any = await lastValueFrom(service.client.send('forbid', payload)).catch(
        (e: unknown) => e,
      );
      expect(errors.map((e: any) => [e.property, Object.keys(e.constraints)])).toEqual([
        ['isAdmin', ['whitelistValidation']],
      ]);
    } finally {
      await service.close();
    }
  },
);
