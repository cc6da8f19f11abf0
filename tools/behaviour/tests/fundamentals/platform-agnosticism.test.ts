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

/** The same handler over HTTP, a gateway and a message pattern, validating a CreateCatDto with the given pipes. */
async function validatingApp(wsPipe: any, rpcPipe: any) {
  const {IsString, IsInt} = nest('class-validator');
  const {Post, Body, UsePipes, ValidationPipe} = nest('@nestjs/common');
  const {WebSocketGateway, SubscribeMessage, MessageBody} = nest('@nestjs/websockets');
  class CreateCatDto {
    @IsString()
    name!: string;
    @IsInt()
    age!: number;
  }
  @Controller('cats')
  class CatsController {
    @Post()
    @UsePipes(new ValidationPipe())
    create(@Body() cat: CreateCatDto) {
      return cat;
    }
    @MessagePattern('cats.create')
    @UsePipes(rpcPipe)
    createOverRpc(@Payload() cat: CreateCatDto) {
      return cat;
    }
  }
  @WebSocketGateway()
  class CatsGateway {
    @SubscribeMessage('createCat')
    @UsePipes(wsPipe)
    create(@MessageBody() cat: CreateCatDto) {
      return cat;
    }
  }
  @Module({controllers: [CatsController], providers: [CatsGateway]})
  class ValidatingModule {}
  const app = await NestFactory.create(ValidatingModule, options);
  const port = await freePort();
  app.connectMicroservice({transport: Transport.TCP, options: {host: '127.0.0.1', port}});
  await app.startAllMicroservices();
  const base = await listen(app);
  return {app, port, base};
}

const invalidCat = {name: 7, age: 'three'};

async function wsAnswer(base: string) {
  const {io} = nest('socket.io-client');
  const socket = io(base, {transports: ['websocket'], forceNew: true});
  await new Promise((r) => socket.once('connect', r));
  const answer = await new Promise((done) => {
    socket.once('exception', done);
    socket.emit('createCat', invalidCat, done);
  });
  socket.close();
  return answer;
}

async function rpcAnswer(port: number) {
  const client = ClientProxyFactory.create({
    transport: Transport.TCP,
    options: {host: '127.0.0.1', port},
  });
  const answer = await firstValueFrom(client.send('cats.create', invalidCat)).then(
    (value) => ({value}),
    (error) => error,
  );
  client.close();
  return answer;
}

const constraints = [
  {property: 'name', children: [], constraints: {isString: 'name must be a string'}},
  {property: 'age', children: [], constraints: {isInt: 'age must be an integer number'}},
];

claim.abuse(
  `${page}#what-changes-between-transports`,
  'an invalid payload against a plain ValidationPipe: HTTP answers 400 with the messages, a gateway and a message handler answer only "Internal server error"',
  async () => {
    const {ValidationPipe} = nest('@nestjs/common');
    const {app, port, base} = await validatingApp(new ValidationPipe(), new ValidationPipe());
    const http = await fetch(`${base}/cats`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify(invalidCat),
    });
    expect(http.status).toBe(400);
    expect((await http.json()).message).toEqual([
      'name must be a string',
      'age must be an integer number',
    ]);
    expect(await wsAnswer(base)).toEqual({status: 'error', message: 'Internal server error'});
    expect(await rpcAnswer(port)).toEqual({status: 'error', message: 'Internal server error'});
    await app.close();
  },
);

claim.abuse(
  `${page}#what-changes-between-transports`,
  "an invalid payload against the page's wsValidationPipe and rpcValidationPipe: the socket and the message caller receive each failed constraint, without the payload",
  async () => {
    const {fragment, compileModule} = await import('../../lib');
    const {wsValidationPipe, rpcValidationPipe} = compileModule(
      fragment(page, 'what-changes-between-transports', 'wsValidationPipe').value,
      'transport-pipes',
    );
    const {app, port, base} = await validatingApp(wsValidationPipe, rpcValidationPipe);
    expect(await wsAnswer(base)).toEqual(constraints);
    expect(await rpcAnswer(port)).toEqual(constraints);
    await app.close();
  },
);
