/**
 * Rate limiting (the throttler of "Getting started", the per-user UserThrottlerGuard of "Tracking
 * authenticated users", `trust proxy` of "Proxies") with the authentication chapter's JWT login, in one
 * application behind a proxy, as a reader who follows both chapters assembles it.
 *
 * The test client plays the proxy: it sends what a proxy sends on, the entries the client wrote in
 * X-Forwarded-For followed by the address the proxy saw.
 */
import {afterAll, beforeAll, describe, expect} from 'vitest';
import {claim, nest, listen, fragment} from '../../lib';
import {
  authPage,
  authPart,
  combine,
  combinedSecret,
  getAs,
  login,
  postJson,
  sign,
  users,
} from './_support';

process.env.JWT_SECRET = combinedSecret;
const {NestFactory} = nest('@nestjs/core');
const ratePage = 'docs/security/rate-limiting.md';
const tracking = `${ratePage}#tracking-authenticated-users`;

/** What a proxy sends on: the entries the client wrote, then the address the proxy saw. */
const viaProxy = (client: string, forged?: string) => ({
  'x-forwarded-for': forged ? `${forged}, ${client}` : client,
});

/** The page's bootstrap line that sets `trust proxy` (Proxies), run on the application. */
function trustProxy(app: any) {
  const code = fragment(ratePage, 'proxies', "app.set('trust proxy'").value;
  const line = /app\.set\('trust proxy', 1\);/.exec(code);
  if (!line) throw new Error("rate-limiting.md#proxies no longer sets app.set('trust proxy', 1)");
  app.set('trust proxy', 1);
}

const userThrottlerGuard = () =>
  fragment(ratePage, 'tracking-authenticated-users', 'class UserThrottlerGuard').value;

/** The profile route of "Protecting routes" behind JwtAuthGuard and then UserThrottlerGuard. */
const profileThrottled: [string, string][] = [
  [
    "  @UseGuards(JwtAuthGuard)\n  @Get('profile')",
    "  @UseGuards(JwtAuthGuard, UserThrottlerGuard)\n  @Get('profile')",
  ],
  [
    "import { LocalAuthGuard } from './auth/local-auth.guard';",
    "import { LocalAuthGuard } from './auth/local-auth.guard';\nimport { UserThrottlerGuard } from './user-throttler.guard';",
  ],
];

/** The guards the wrong way round, as a second route (the page: "from left to right"). */
const reversedController = `
import { Controller, Get, Request, UseGuards } from '@nestjs/common';
import { JwtAuthGuard } from './auth/jwt-auth.guard';
import { UserThrottlerGuard } from './user-throttler.guard';

@Controller('reversed')
export class ReversedController {
  @UseGuards(UserThrottlerGuard, JwtAuthGuard)
  @Get()
  profile(@Request() req) {
    return req.user;
  }
}
`;

async function start(set: any) {
  const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
  trustProxy(app);
  const base = await listen(app);
  return {app, base};
}

async function statuses(n: number, request: (i: number) => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i += 1) out.push(await request(i));
  return out;
}

describe("Getting started's global ThrottlerGuard kept, UserThrottlerGuard added on the route", () => {
  let app: any;
  let base: string;
  beforeAll(async () => {
    const set = combine(
      [
        authPart('protecting-routes', {'app.controller': profileThrottled}),
        {
          page: ratePage,
          options: {pick: {'app.module': 1}},
          take: {'app.module': 'throttling.module'},
        },
      ],
      {
        'user-throttler.guard': userThrottlerGuard(),
        'app.module': `
import { Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { AppController } from './app.controller';
import { AppModule as ThrottlingModule } from './throttling.module';

@Module({ imports: [ThrottlingModule, AuthModule], controllers: [AppController] })
export class AppModule {}
`,
      },
    );
    ({app, base} = await start(set));
  });
  afterAll(async () => app?.close());

  claim.abuse(
    tracking,
    "two users behind one address: the global per-address ThrottlerGuard still counts too, so after alice's 10 calls bob's first gets 429 despite his own per-user budget",
    async () => {
      const office = viaProxy('203.0.113.10');
      const alice = await login(base, ...users.alice);
      const bob = await login(base, ...users.bob);
      expect(
        await statuses(10, async () => (await getAs(`${base}/profile`, alice, office)).status),
      ).toEqual(Array(10).fill(200));
      expect((await getAs(`${base}/profile`, bob, office)).status).toBe(429);
      // From another address, bob is served: it is the address's budget that ran out, not his
      expect((await getAs(`${base}/profile`, bob, viaProxy('203.0.113.11'))).status).toBe(200);
    },
  );
});

describe('UserThrottlerGuard in place of the global ThrottlerGuard, bound after JwtAuthGuard', () => {
  let app: any;
  let base: string;
  beforeAll(async () => {
    const set = combine([authPart('protecting-routes', {'app.controller': profileThrottled})], {
      'user-throttler.guard': userThrottlerGuard(),
      'reversed.controller': reversedController,
      'app.module': `
import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { AuthModule } from './auth/auth.module';
import { AppController } from './app.controller';
import { ReversedController } from './reversed.controller';

@Module({
  imports: [ThrottlerModule.forRoot({ ttl: 60, limit: 10 }), AuthModule],
  controllers: [AppController, ReversedController],
})
export class AppModule {}
`,
    });
    ({app, base} = await start(set));
  });
  afterAll(async () => app?.close());

  claim.abuse(
    tracking,
    'one user from many addresses: alice behind twelve different client addresses still has one budget (10 x 200, then 429), while bob at one of those addresses is served',
    async () => {
      const alice = await login(base, ...users.alice);
      const bob = await login(base, ...users.bob);
      const seen = await statuses(
        12,
        async (i) =>
          (await getAs(`${base}/profile`, alice, viaProxy(`198.51.100.${i + 1}`))).status,
      );
      expect(seen).toEqual([...Array(10).fill(200), 429, 429]);
      expect((await getAs(`${base}/profile`, bob, viaProxy('198.51.100.12'))).status).toBe(200);
    },
  );

  claim.abuse(
    tracking,
    'requests that JwtAuthGuard refuses are never counted: 30 calls with forged, expired or missing tokens from one address all get 401, none 429',
    async () => {
      const address = viaProxy('192.0.2.50');
      const expired = sign({sub: 1, username: 'alice', exp: Math.floor(Date.now() / 1000) - 5});
      const seen = await statuses(30, async (i) => {
        const token = [undefined, 'a.b.c', expired][i % 3];
        return (await getAs(`${base}/profile`, token, address)).status;
      });
      expect(seen).toEqual(Array(30).fill(401));
    },
  );

  claim.abuse(
    tracking,
    '@UseGuards(UserThrottlerGuard, JwtAuthGuard), the wrong way round: the throttler finds no user and counts by address, so bob shares the budget alice used up',
    async () => {
      const office = viaProxy('203.0.113.20');
      const alice = await login(base, ...users.alice);
      const bob = await login(base, ...users.bob);
      expect(
        await statuses(10, async () => (await getAs(`${base}/reversed`, alice, office)).status),
      ).toEqual(Array(10).fill(200));
      expect((await getAs(`${base}/reversed`, bob, office)).status).toBe(429);
    },
  );
});

describe('both global in the root module, JwtAuthGuard first, the login route @Public()', () => {
  let app: any;
  let base: string;
  beforeAll(async () => {
    const part = authPart('enable-authentication-globally', {
      'app.controller': [
        [
          "  @UseGuards(LocalAuthGuard)\n  @Post('auth/login')",
          "  @Public()\n  @UseGuards(LocalAuthGuard)\n  @Post('auth/login')",
        ],
        [
          "import { LocalAuthGuard } from './auth/local-auth.guard';",
          "import { LocalAuthGuard } from './auth/local-auth.guard';\nimport { Public } from './auth/public.decorator';",
        ],
      ],
    });
    part.options!.files = {
      ...part.options!.files,
      'auth/public.decorator': fragment(
        authPage,
        'enable-authentication-globally',
        'export const Public',
      ).value,
    };
    (part.take as string[]).push('auth/public.decorator');
    const set = combine([part], {
      'user-throttler.guard': userThrottlerGuard(),
      'app.module': `
import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AuthModule } from './auth/auth.module';
import { JwtAuthGuard } from './auth/jwt-auth.guard';
import { AppController } from './app.controller';
import { UserThrottlerGuard } from './user-throttler.guard';

@Module({
  imports: [ThrottlerModule.forRoot({ ttl: 60, limit: 10 }), AuthModule],
  controllers: [AppController],
  providers: [
    { provide: APP_GUARD, useClass: JwtAuthGuard },
    { provide: APP_GUARD, useClass: UserThrottlerGuard },
  ],
})
export class AppModule {}
`,
    });
    ({app, base} = await start(set));
  });
  afterAll(async () => app?.close());

  const guess = (headers: Record<string, string>, password = 'guess') =>
    postJson(`${base}/auth/login`, {username: 'alice', password}, headers).then((r) => r.status);

  claim.abuse(
    `${ratePage}#proxies`,
    'password guessing on the login route behind the proxy: forged entries in front of X-Forwarded-For change nothing, the 11th guess from one client gets 429 (the right password too); another client still logs in',
    async () => {
      const seen = await statuses(11, (i) => guess(viaProxy('203.0.113.30', `10.0.${i}.${i + 1}`)));
      expect(seen).toEqual([...Array(10).fill(401), 429]);
      expect(await guess(viaProxy('203.0.113.30', '10.9.9.9'), 'wonderland')).toBe(429);
      expect(await guess(viaProxy('203.0.113.31'), 'wonderland')).toBe(201);
    },
  );

  claim.abuse(
    `${ratePage}#proxies`,
    'a client that reaches the application around the proxy, with trust proxy 1, writes its own address: a new X-Forwarded-For per request, and 15 password guesses all get 401, none 429',
    async () => {
      const seen = await statuses(15, (i) => guess({'x-forwarded-for': `100.64.${i}.1`}));
      expect(seen).toEqual(Array(15).fill(401));
    },
  );
});
