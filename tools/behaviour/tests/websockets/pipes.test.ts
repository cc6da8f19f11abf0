import {afterEach, expect} from 'vitest';
import {claim, samples, nest, listen} from '../../lib';
import {ioConnect, collect, emitAck} from './_support';

const {Module, ValidationPipe} = nest('@nestjs/common');
const {NestFactory, APP_PIPE} = nest('@nestjs/core');
const page = 'docs/websockets/pipes.md';

const dto = `
import { IsInt, IsString } from 'class-validator';
export class CreateCatDto {
  @IsString() name: string;
  @IsInt() age: number;
}
`;

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
    const {CatsGateway} = samples(page, {
      under: 'binding-pipes',
      files: {'dto/create-cat.dto': dto},
    }).require('cats.gateway');
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
  'with exceptionFactory, the exception event carries the validation errors (one object per property, with its constraints)',
  async () => {
    const {CatsGateway} = samples(page, {
      under: 'binding-pipes',
      files: {'dto/create-cat.dto': dto},
    }).require('cats.gateway');
    const url = await start([CatsGateway]);
    const socket = await ioConnect(url);
    const errors = collect(socket, 'exception');
    socket.emit('createCat', {name: 7, age: 'three'});
    const [payload] = (await errors) as any[];
    expect(Array.isArray(payload)).toBe(true);
    expect(payload.map((error: any) => [error.property, Object.keys(error.constraints)])).toEqual([
      ['name', ['isString']],
      ['age', ['isInt']],
    ]);
    socket.close();
  },
);

claim(
  `${page}#binding-pipes`,
  "without exceptionFactory, ValidationPipe's BadRequestException reaches the client as Internal server error",
  async () => {
    const {CatsGateway} = samples(page, {
      under: 'binding-pipes',
      files: {'dto/create-cat.dto': dto},
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

claim(
  `${page}#binding-pipes`,
  'the JavaScript half (no DTO type to validate against) passes the payload through',
  async () => {
    const {CatsGateway} = samples(page, {under: 'binding-pipes', lang: 'js'}).require(
      'cats.gateway',
    );
    const url = await start([CatsGateway]);
    const socket = await ioConnect(url);
    const got = collect(socket, 'catCreated');
    socket.emit('createCat', {name: 'Tom'});
    expect(await got).toEqual([{name: 'Tom'}]);
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
      const {CatsGateway} = samples(page, {
        under: 'parameter-scoped-pipes',
        lang,
        files: lang === 'ts' ? {'dto/create-cat.dto': dto} : {},
      }).require('cats.gateway');
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
      if (lang === 'ts') {
        const errors = collect(sender, 'exception');
        sender.emit('createCat', {name: 'Tom'});
        expect(((await errors) as any[])[0].map((error: any) => error.property)).toEqual(['age']);
      }
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
