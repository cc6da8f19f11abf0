import {firstValueFrom} from 'rxjs';
import {expect} from 'vitest';
import {claim, nest, listen, freePort} from '../../lib';

const {Module, Controller, Get, Param, ParseIntPipe, UseGuards, Injectable} =
  nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {FastifyAdapter} = nest('@nestjs/platform-fastify');
const {Transport, ClientProxyFactory, MessagePattern, Payload} = nest('@nestjs/microservices');
const page = 'docs/fundamentals/platform-agnosticism.md';
const options: any = {logger: false, abortOnError: false};

@Injectable()
class EvenOnlyGuard {
  canActivate(context: any) {
    const value =
      context.getType() === 'http'
        ? context.switchToHttp().getRequest().params.id
        : context.switchToRpc().getData().id;
    return Number(value) % 2 === 0;
  }
}

@Controller('cats')
@UseGuards(EvenOnlyGuard)
class CatsController {
  @Get(':id')
  findOne(@Param('id', ParseIntPipe) id: number) {
    return {id, type: typeof id};
  }
  @MessagePattern('cats.find')
  find(@Payload() data: {id: number}) {
    return {id: data.id};
  }
}

@Module({controllers: [CatsController]})
class AppModule {}

claim(
  `${page}#build-once-use-everywhere`,
  'the same controller, guard and pipe answer identically on the Express and the Fastify adapter',
  async () => {
    const answers: unknown[] = [];
    for (const adapter of [undefined, new FastifyAdapter()]) {
      const app = adapter
        ? await NestFactory.create(AppModule, adapter, options)
        : await NestFactory.create(AppModule, options);
      const base = await listen(app);
      const ok = await fetch(`${base}/cats/2`);
      const denied = await fetch(`${base}/cats/3`);
      const invalid = await fetch(`${base}/cats/abc`);
      answers.push([ok.status, await ok.json(), denied.status, invalid.status]);
      await app.close();
    }
    expect(answers).toEqual([
      [200, {id: 2, type: 'number'}, 403, 403],
      [200, {id: 2, type: 'number'}, 403, 403],
    ]);
  },
);

claim(
  `${page}#build-once-use-everywhere`,
  'a guard written for a REST controller also guards a message handler of a hybrid application',
  async () => {
    const port = await freePort();
    const app = await NestFactory.create(AppModule, options);
    app.connectMicroservice({transport: Transport.TCP, options: {host: '127.0.0.1', port}});
    await app.startAllMicroservices();
    await app.init();
    const client = ClientProxyFactory.create({
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port},
    });
    expect(await firstValueFrom(client.send('cats.find', {id: 4}))).toEqual({id: 4});
    const denied = await firstValueFrom(client.send('cats.find', {id: 5})).then(
      () => null,
      (e: any) => e,
    );
    expect(denied).toEqual({status: 'error', message: 'Forbidden resource'});
    client.close();
    await app.close();
  },
);
