/**
 * The gateways chapter's Socket.io gateways (the handshake check of "Authenticating connections", the
 * room join of "Handling messages", the room chat of "Server", the origin check of "Cross-origin
 * clients") with the authentication chapter's login for the tokens, and the guards of the guards and
 * authentication chapters bound to a gateway, as a reader who follows them assembles it.
 */
import {afterAll, beforeAll, describe, expect} from 'vitest';
import {claim, listen, nest} from '../../lib';
import {collect, emitAck, ioConnect} from '../websockets/_support';
import {authPart, combine, combinedSecret, getAs, login, sign, users, type Part} from './_support';

process.env.JWT_SECRET = combinedSecret;
const {NestFactory} = nest('@nestjs/core');
const gatewaysPage = 'docs/websockets/gateways.md';
const wsGuardsPage = 'docs/websockets/guards.md';
const guardsPage = 'docs/guards.md';
const authenticating = `${gatewaysPage}#authenticating-connections`;

/** A gateway file of the page as it stands at the end of `under`, under a name of its own. */
const gateway = (under: string, as: string): Part => ({
  page: gatewaysPage,
  options: {under},
  take: {'events.gateway': as},
});

/**
 * Gateways a reader adds next to the page's: handlers guarded by the authentication chapter's
 * JwtAuthGuard and by the guards chapter's RolesGuard with @Roles('admin').
 */
const guardedGateway = `
import { UseGuards } from '@nestjs/common';
import { ConnectedSocket, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import { Socket } from 'socket.io';
import { JwtAuthGuard } from './auth/jwt-auth.guard';
import { RolesGuard } from './roles.guard';
import { Roles } from './roles.decorator';

@WebSocketGateway()
export class GuardedGateway {
  @UseGuards(JwtAuthGuard)
  @SubscribeMessage('profile')
  profile(@ConnectedSocket() client: Socket) {
    return client.data.user.username;
  }

  @UseGuards(RolesGuard)
  @Roles('admin')
  @SubscribeMessage('admin-stats')
  stats() {
    return { sockets: 1 };
  }
}
`;

function appSet() {
  return combine(
    [
      authPart(),
      gateway('authenticating-connections', 'events.gateway'),
      {
        page: gatewaysPage,
        options: {under: 'authenticating-connections'},
        take: ['events.module'],
      },
      gateway('handling-messages', 'join.gateway'),
      gateway('server', 'chat.gateway'),
      {page: guardsPage, take: ['roles.guard', 'roles.decorator']},
    ],
    {
      'guarded.gateway': guardedGateway,
      'app.module': `
import { Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { AppController } from './app.controller';
import { EventsModule } from './events.module';
import { EventsGateway as JoinGateway } from './join.gateway';
import { EventsGateway as ChatGateway } from './chat.gateway';
import { GuardedGateway } from './guarded.gateway';

@Module({
  imports: [EventsModule, AuthModule],
  controllers: [AppController],
  providers: [JoinGateway, ChatGateway, GuardedGateway],
})
export class AppModule {}
`,
    },
  );
}

/** 'connect_error: <message>', or the connected socket. */
async function connect(url: string, options: Record<string, unknown>): Promise<any> {
  try {
    return await ioConnect(url, options);
  } catch (error) {
    return `connect_error: ${(error as Error).message}`;
  }
}

describe("the handshake check, the page's room gateways and chapter guards on one server", () => {
  let app: any;
  let base: string;
  let tokens: {alice: string; bob: string};
  const sockets: any[] = [];
  const as = async (token: string) => {
    const socket = await ioConnect(base, {auth: {token}});
    sockets.push(socket);
    return socket;
  };
  beforeAll(async () => {
    app = await NestFactory.create(appSet().require('app.module').AppModule, {logger: false});
    base = await listen(app);
    tokens = {alice: await login(base, ...users.alice), bob: await login(base, ...users.bob)};
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await app?.close();
  });

  claim(
    authenticating,
    "the tokens of the authentication chapter's POST /auth/login open the gateway: whoami answers alice's sub (1) and bob's (2)",
    async () => {
      expect(await emitAck(await as(tokens.alice), 'whoami', null)).toBe(1);
      expect(await emitAck(await as(tokens.bob), 'whoami', null)).toBe(2);
    },
  );

  claim.abuse(
    authenticating,
    "no token, a malformed one, another secret's, an expired one, or the login token in the query string: connect_error Unauthorized, for every gateway of the server",
    async () => {
      const expired = sign({sub: 1, username: 'alice', exp: Math.floor(Date.now() / 1000) - 5});
      const foreign = sign({sub: 1, username: 'alice'}, {secret: 'z'.repeat(40), expiresIn: '60s'});
      for (const options of [
        {},
        {auth: {token: 'a.b.c'}},
        {auth: {token: foreign}},
        {auth: {token: expired}},
        {query: {token: tokens.alice}},
      ]) {
        expect(await connect(base, options), JSON.stringify(options)).toBe(
          'connect_error: Unauthorized',
        );
      }
    },
  );

  claim.abuse(
    `${wsGuardsPage}#binding-guards`,
    "the authentication chapter's JwtAuthGuard bound to a gateway handler refuses every message, alice's too: the guard looks for an Authorization header on the socket and fails with 'Internal server error'",
    async () => {
      const socket = await as(tokens.alice);
      const errors = collect(socket, 'exception', 1, 1000);
      expect(await emitAck(socket, 'profile', null)).toBe('timeout');
      expect(await errors).toEqual([{status: 'error', message: 'Internal server error'}]);
    },
  );

  claim.abuse(
    `${guardsPage}#putting-it-all-together`,
    "the guards chapter's RolesGuard on a gateway handler refuses every message ('Forbidden resource'): it only knows where HTTP keeps the user",
    async () => {
      const socket = await as(tokens.alice);
      const errors = collect(socket, 'exception', 1, 1000);
      expect(await emitAck(socket, 'admin-stats', null)).toBe('timeout');
      expect(await errors).toEqual([{status: 'error', message: 'Forbidden resource'}]);
    },
  );

  claim.abuse(
    `${gatewaysPage}#handling-messages`,
    "a second user's room: bob cannot join the room of alice's socket id, while both join 'cats'; a chat to 'cats' reaches both members, and bob cannot post into a room he has not joined",
    async () => {
      const alice = await as(tokens.alice);
      const bob = await as(tokens.bob);
      const refused = collect(bob, 'exception', 1, 1000);
      expect(await emitAck(bob, 'join', {room: alice.id})).toBe('timeout');
      expect(await refused).toEqual([{status: 'error', message: 'Unknown room'}]);
      expect(await emitAck(alice, 'join', {room: 'cats'})).toBe(`Client ${alice.id} joined cats`);
      const toAlice = collect(alice, 'chat', 1, 1000);
      const notMember = collect(bob, 'exception', 1, 1000);
      bob.emit('chat', {room: 'cats', text: 'hi'});
      expect(await notMember).toEqual([{status: 'error', message: 'Join the room first'}]);
      expect(await emitAck(bob, 'join', {room: 'cats'})).toBe(`Client ${bob.id} joined cats`);
      const toBob = collect(bob, 'chat', 1, 1000);
      bob.emit('chat', {room: 'cats', text: 'hello'});
      expect(await toAlice).toEqual([{from: bob.id, text: 'hello'}]);
      expect(await toBob).toEqual([{from: bob.id, text: 'hello'}]);
    },
  );
});

claim.abuse(
  `${wsGuardsPage}#rejecting-connections`,
  "the authentication chapter's JwtAuthGuard made global (APP_GUARD) closes the HTTP routes but not a gateway: a client without any token is answered there",
  async () => {
    const set = combine([authPart(), gateway('handling-messages', 'join.gateway')], {
      'app.module': `
import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthModule } from './auth/auth.module';
import { AppController } from './app.controller';
import { JwtAuthGuard } from './auth/jwt-auth.guard';
import { EventsGateway } from './join.gateway';

@Module({
  imports: [AuthModule],
  controllers: [AppController],
  providers: [EventsGateway, { provide: APP_GUARD, useClass: JwtAuthGuard }],
})
export class AppModule {}
`,
    });
    const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
    try {
      const base = await listen(app);
      expect((await getAs(`${base}/profile`)).status).toBe(401);
      const socket = await ioConnect(base, {});
      try {
        expect(await emitAck(socket, 'join', {room: 'cats'})).toBe(
          `Client ${socket.id} joined cats`,
        );
      } finally {
        socket.close();
      }
    } finally {
      await app.close();
    }
  },
);

describe('a foreign origin: the origin check of "Cross-origin clients" next to the handshake check', () => {
  const allowed = 'http://localhost:4200';
  const foreign = 'https://evil.example';
  async function start(sameOptions: boolean) {
    const parts: Part[] = [
      authPart(),
      {
        page: gatewaysPage,
        options: {
          under: 'authenticating-connections',
          edit: sameOptions
            ? {
                // "Give every gateway that shares a server the same options, allowRequest included"
                'events.gateway': [
                  [
                    '@WebSocketGateway()\nexport class EventsGateway',
                    '@WebSocketGateway(serverOptions)\nexport class EventsGateway',
                  ],
                  [
                    "import { Server, Socket } from 'socket.io';",
                    "import { Server, Socket } from 'socket.io';\nimport { serverOptions } from './chat.gateway';",
                  ],
                ],
              }
            : {},
        },
        take: ['events.gateway', 'events.module'],
      },
      {
        page: gatewaysPage,
        options: {
          under: 'cross-origin-clients',
          edit: sameOptions
            ? {
                'chat.gateway': [
                  [
                    "@WebSocketGateway({\n  namespace: 'chat',\n",
                    'export const serverOptions = {\n',
                  ],
                  [
                    '})\nexport class ChatGateway',
                    "};\n\n@WebSocketGateway({ namespace: 'chat', ...serverOptions })\nexport class ChatGateway",
                  ],
                ],
              }
            : {},
        },
        take: ['chat.gateway'],
      },
    ];
    const set = combine(parts, {
      'app.module': `
import { Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { AppController } from './app.controller';
import { EventsModule } from './events.module';
import { ChatGateway } from './chat.gateway';

// Each gateway in its feature module, the chat module imported after the events module
@Module({ providers: [ChatGateway] })
export class ChatModule {}

@Module({ imports: [EventsModule, ChatModule, AuthModule], controllers: [AppController] })
export class AppModule {}
`,
    });
    const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
    return {app, base: await listen(app)};
  }

  claim.abuse(
    `${gatewaysPage}#cross-origin-clients`,
    "ChatGateway (allowRequest) in a module imported after the one of the authenticating EventsGateway (no options): the server takes the first gateway's options, and a foreign origin with alice's token connects to both namespaces",
    async () => {
      const {app, base} = await start(false);
      try {
        const alice = await login(base, ...users.alice);
        for (const path of ['', '/chat']) {
          const socket = await connect(`${base}${path}`, {
            auth: {token: alice},
            extraHeaders: {origin: foreign},
          });
          expect(typeof socket, `${path}: ${socket}`).toBe('object');
          socket.close();
        }
      } finally {
        await app.close();
      }
    },
  );

  claim.abuse(
    `${gatewaysPage}#cross-origin-clients`,
    "the same options on both gateways: a foreign origin is refused before the token is looked at, alice's own token included; from the allowed origin her token opens the gateway and a missing one is still refused",
    async () => {
      const {app, base} = await start(true);
      try {
        const alice = await login(base, ...users.alice);
        for (const path of ['', '/chat']) {
          expect(
            await connect(`${base}${path}`, {
              auth: {token: alice},
              extraHeaders: {origin: foreign},
            }),
            path,
          ).toMatch(/^connect_error: /);
        }
        const socket = await connect(base, {auth: {token: alice}, extraHeaders: {origin: allowed}});
        expect(await emitAck(socket, 'whoami', null)).toBe(1);
        socket.close();
        expect(await connect(base, {extraHeaders: {origin: allowed}})).toBe(
          'connect_error: Unauthorized',
        );
      } finally {
        await app.close();
      }
    },
  );
});
