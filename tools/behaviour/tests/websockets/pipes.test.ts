import {afterEach, expect} from 'vitest';
import {claim, samples, nest, listen, expectOutput} from '../../lib';
import {ioConnect, collect, emitAck} from './_support';

const {Module, ValidationPipe} = nest('@nestjs/common');
const {NestFactory, APP_PIPE} = nest('@nestjs/core');
const page = 'docs/websockets/pipes.md';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function start(providers: unknown[], setup?: (app: any) => void): Promise<string> {
  @Module({providers: providers as any[]})
  class AppModule {}
  const app = await NestFactory.create(AppModule, {logger: false});
  setup?.(app);
  close = () => app.close();
  return listen(app);
}

claim(
  `${page}#binding-pipes`,
  'a valid payload reaches the handler: the client receives catCreated',
  async () => {
    const {CatsGateway} = samples(page, {under: 'binding-pipes'}).require('cats.gateway');
    const url = await start([CatsGateway]);
    const socket = await ioConnect(url);
    const got = collect(socket, 'catCreated');
    socket.emit('createCat', {name: 'Tom', age: 3});
    expect(await got).toEqual([{name: 'Tom', age: 3}]);
    socket.close();
  },
);

claim(
  `${page}#binding-pipes`,
  "with exceptionFactory, the exception event carries the page's validation errors: one object per property, without target and value",
  async () => {
    const {CatsGateway} = samples(page, {under: 'binding-pipes'}).require('cats.gateway');
    const url = await start([CatsGateway]);
    const socket = await ioConnect(url);
    const errors = collect(socket, 'exception');
    socket.emit('createCat', {name: 7, age: 'three'});
    const [payload] = (await errors) as any[];
    expectOutput(page, 'ws-validation-errors', payload);
    socket.close();
  },
);

claim(
  `${page}#binding-pipes`,
  "without exceptionFactory, ValidationPipe's BadRequestException reaches the client as Internal server error",
  async () => {
    const {CatsGateway} = samples(page, {
      under: 'binding-pipes',
      edit: {
        'cats.gateway': [[/new ValidationPipe\(\{[\s\S]*?\}\),\n/, 'new ValidationPipe(),\n']],
      },
    }).require('cats.gateway');
    const url = await start([CatsGateway]);
    const socket = await ioConnect(url);
    const errors = collect(socket, 'exception');
    socket.emit('createCat', {name: 7});
    expect(await errors).toEqual([{status: 'error', message: 'Internal server error'}]);
    socket.close();
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#binding-pipes`,
    `an invalid payload does not reach the handler: the client gets the validation errors and no catCreated (${lang})`,
    async () => {
      const {CatsGateway} = samples(page, {under: 'binding-pipes', lang}).require('cats.gateway');
      const url = await start([CatsGateway]);
      const socket = await ioConnect(url);
      const created = collect(socket, 'catCreated', 1, 300);
      const errors = collect(socket, 'exception');
      socket.emit('createCat', {name: 5, age: 'x', admin: true});
      const [payload] = (await errors) as any[];
      expectOutput(page, 'ws-validation-errors', payload);
      expect(await created).toEqual([]);
      socket.close();
    },
  );

  claim.abuse(
    `${page}#binding-pipes`,
    `whitelist: properties the DTO does not declare are removed before the handler sees the payload (${lang})`,
    async () => {
      const {CatsGateway} = samples(page, {under: 'binding-pipes', lang}).require('cats.gateway');
      const url = await start([CatsGateway]);
      const socket = await ioConnect(url);
      const created = collect(socket, 'catCreated');
      socket.emit('createCat', {name: 'Tom', age: 3, owner: 'admin', __proto__: {admin: true}});
      expect(await created).toEqual([{name: 'Tom', age: 3}]);
      socket.close();
    },
  );
}

claim.abuse(
  `${page}#binding-pipes`,
  'a payload that is not an object (a string, a number, null, an array) fails with both properties reported',
  async () => {
    const {CatsGateway} = samples(page, {under: 'binding-pipes'}).require('cats.gateway');
    const url = await start([CatsGateway]);
    const socket = await ioConnect(url);
    const errors = collect(socket, 'exception', 4);
    for (const payload of ['Tom', 3, null, [{name: 'Tom', age: 3}]])
      socket.emit('createCat', payload);
    const payloads = (await errors) as any[];
    expect(payloads.map((list) => list.map((error: any) => error.property))).toEqual(
      Array(4).fill(['name', 'age']),
    );
    socket.close();
  },
);

claim(
  `${page}#binding-pipes`,
  'without expectedType, the JavaScript half validates nothing: any payload reaches the handler',
  async () => {
    const {CatsGateway} = samples(page, {
      under: 'binding-pipes',
      lang: 'js',
      edit: {'cats.gateway': [['      expectedType: CreateCatDto,\n', '']]},
    }).require('cats.gateway');
    const url = await start([CatsGateway]);
    const socket = await ioConnect(url);
    const got = collect(socket, 'catCreated');
    socket.emit('createCat', {name: 5, age: 'x', admin: true});
    expect(await got).toEqual([{name: 5, age: 'x', admin: true}]);
    socket.close();
  },
);

claim(
  `${page}#parameter-scoped-pipes`,
  'a pipe bound with @UsePipes() also runs for the @ConnectedSocket() parameter',
  async () => {
    const {WebSocketGateway, SubscribeMessage, MessageBody, ConnectedSocket} =
      nest('@nestjs/websockets');
    const {UsePipes} = nest('@nestjs/common');
    const seen: string[] = [];
    @WebSocketGateway()
    class SpyGateway {
      @UsePipes({transform: (value: unknown, metadata: any) => (seen.push(metadata.type), value)})
      @SubscribeMessage('spy')
      spy(@MessageBody() body: unknown, @ConnectedSocket() client: unknown) {
        void client;
        return body;
      }
    }
    const url = await start([SpyGateway]);
    const socket = await ioConnect(url);
    expect(await emitAck(socket, 'spy', 1)).toBe(1);
    // Once for the payload, once for the socket.
    expect(seen).toHaveLength(2);
    expect(seen).toContain('body');
    socket.close();
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#parameter-scoped-pipes`,
    `the pipe on @MessageBody() validates the payload only: a valid cat is acknowledged and broadcast to the others (${lang})`,
    async () => {
      const {CatsGateway} = samples(page, {under: 'parameter-scoped-pipes', lang}).require(
        'cats.gateway',
      );
      const url = await start([CatsGateway]);
      const sender = await ioConnect(url);
      const other = await ioConnect(url);
      const broadcast = collect(other, 'catCreated');
      const own = collect(sender, 'catCreated', 1, 300);
      expect(await emitAck(sender, 'createCat', {name: 'Tom', age: 3})).toEqual({
        name: 'Tom',
        age: 3,
      });
      expect(await broadcast).toEqual([{name: 'Tom', age: 3}]);
      expect(await own).toEqual([]);
      sender.close();
      other.close();
    },
  );

  claim.abuse(
    `${page}#parameter-scoped-pipes`,
    `a second client receives nothing of an invalid cat, and only name and age of a valid one with extra fields (${lang})`,
    async () => {
      const {CatsGateway} = samples(page, {under: 'parameter-scoped-pipes', lang}).require(
        'cats.gateway',
      );
      const url = await start([CatsGateway]);
      const sender = await ioConnect(url);
      const other = await ioConnect(url);
      const nothing = collect(other, 'catCreated', 1, 300);
      const errors = collect(sender, 'exception');
      sender.emit('createCat', {name: 'Tom'});
      expect(((await errors) as any[])[0].map((error: any) => error.property)).toEqual(['age']);
      expect(await nothing).toEqual([]);
      const broadcast = collect(other, 'catCreated');
      sender.emit('createCat', {name: 'Tom', age: 3, html: '<script>alert(1)</script>'});
      expect(await broadcast).toEqual([{name: 'Tom', age: 3}]);
      sender.close();
      other.close();
    },
  );
}

claim(
  `${page}#parameter-scoped-pipes`,
  'pipes from useGlobalPipes() or APP_PIPE are not applied to gateway handlers',
  async () => {
    const {WebSocketGateway, SubscribeMessage, MessageBody} = nest('@nestjs/websockets');
    const ran: string[] = [];
    @WebSocketGateway()
    class PlainGateway {
      @SubscribeMessage('echo')
      echo(@MessageBody() data: unknown) {
        return data;
      }
    }
    const url = await start(
      [
        PlainGateway,
        {provide: APP_PIPE, useValue: {transform: (v: unknown) => (ran.push('APP_PIPE'), v)}},
      ],
      (app) =>
        app.useGlobalPipes(new ValidationPipe(), {
          transform: (v: unknown) => (ran.push('useGlobalPipes'), v),
        }),
    );
    const socket = await ioConnect(url);
    expect(await emitAck(socket, 'echo', 'x')).toBe('x');
    expect(ran).toEqual([]);
    socket.close();
  },
);

claim(
  `${page}#parameter-scoped-pipes`,
  "@MessageBody('name', pipe) hands the pipe and the handler only that property",
  async () => {
    const {WebSocketGateway, SubscribeMessage, MessageBody} = nest('@nestjs/websockets');
    const upper = {transform: (value: string) => value.toUpperCase()};
    @WebSocketGateway()
    class NameGateway {
      @SubscribeMessage('name')
      name(@MessageBody('name', upper) name: string) {
        return name;
      }
    }
    const url = await start([NameGateway]);
    const socket = await ioConnect(url);
    expect(await emitAck(socket, 'name', {name: 'tom', age: 3})).toBe('TOM');
    socket.close();
  },
);

claim.abuse(
  `${page}#parameter-scoped-pipes`,
  'a name over 50 characters is refused and not broadcast: one client cannot make the server send its large payload to everyone',
  async () => {
    const {CatsGateway} = samples(page, {under: 'parameter-scoped-pipes'}).require('cats.gateway');
    const url = await start([CatsGateway]);
    const sender = await ioConnect(url);
    const other = await ioConnect(url);
    const nothing = collect(other, 'catCreated', 1, 300);
    const errors = collect(sender, 'exception');
    sender.emit('createCat', {name: 'x'.repeat(900_000), age: 3});
    expect(((await errors) as any[])[0]).toEqual([
      {
        property: 'name',
        children: [],
        constraints: {maxLength: 'name must be shorter than or equal to 50 characters'},
      },
    ]);
    expect(await nothing).toEqual([]);
    sender.close();
    other.close();
  },
);
