import {afterAll, beforeAll, describe, expect} from 'vitest';
import {claim, samples, nest, listen, compileModule, fragment, expectOutput} from '../../lib';

const page = 'docs/recipes/router-module.md';
const {NestFactory, RouterModule} = nest('@nestjs/core');
const {Module, VersioningType} = nest('@nestjs/common');
const {Transport, ClientProxyFactory} = nest('@nestjs/microservices');

/** The modules the page's app.module imports but does not show. */
const modules: Record<string, string> = {
  'admin.module': `
    import { Controller, Get, Module } from '@nestjs/common';
    import { AuditModule } from './audit.module';
    @Controller('users')
    export class UsersController { @Get() list() { return ['aria']; } }
    @Module({ imports: [AuditModule], controllers: [UsersController] })
    export class AdminModule {}`,
  'audit.module': `
    import { Controller, Get, Module } from '@nestjs/common';
    @Controller('audit')
    export class AuditController { @Get() list() { return 'audit'; } }
    @Module({ controllers: [AuditController] })
    export class AuditModule {}`,
  'dashboard.module': `
    import { Module } from '@nestjs/common';
    import { StatsController } from './stats.controller';
    @Module({ controllers: [StatsController] })
    export class DashboardModule {}`,
  'metrics.module': `
    import { Controller, Get, Module } from '@nestjs/common';
    @Controller('cpu')
    export class CpuController { @Get() cpu() { return 0.5; } }
    @Module({ controllers: [CpuController] })
    export class MetricsModule {}`,
  'cats.module': `
    import { Controller, Get, Module } from '@nestjs/common';
    @Controller('cats')
    export class CatsController { @Get() list() { return ['tom']; } }
    @Module({ controllers: [CatsController] })
    export class CatsModule {}`,
};

const apps: any[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});
async function start(root: unknown, setup?: (app: any) => void): Promise<string> {
  const app = await NestFactory.create(root, {logger: false});
  apps.push(app);
  setup?.(app);
  return listen(app);
}
const status = async (base: string, path: string) => (await fetch(`${base}${path}`)).status;

describe("the page's route tree", () => {
  let base: string;
  beforeAll(async () => {
    base = await start(samples(page, {files: modules}).require('app.module').AppModule);
  });

  claim(
    `${page}#how-paths-combine`,
    'the dashboard handler answers at GET /admin/dashboard/stats/visitors, not at /stats/visitors',
    async () => {
      const response = await fetch(`${base}/admin/dashboard/stats/visitors`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({today: 42});
      expect(await status(base, '/stats/visitors')).toBe(404);
    },
  );

  claim(
    `${page}#how-paths-combine`,
    'a controller of AdminModule gets /admin/users; CatsModule, not in the tree, keeps /cats; children append their path',
    async () => {
      expect(await status(base, '/admin/users')).toBe(200);
      expect(await status(base, '/cats')).toBe(200);
      expect(await status(base, '/admin/metrics/cpu')).toBe(200);
    },
  );

  claim(
    `${page}#how-paths-combine`,
    'a module that AdminModule imports is not prefixed by that import',
    async () => {
      expect(await status(base, '/audit')).toBe(200);
      expect(await status(base, '/admin/audit')).toBe(404);
    },
  );
});
claim(
  `${page}#registering-routes`,
  'RouterModule does not import the modules: a module only named in the tree has no routes',
  async () => {
    const set = samples(page, {files: modules});
    const {MetricsModule} = set.require('metrics.module');
    @Module({imports: [RouterModule.register([{path: 'admin', module: MetricsModule}])]})
    class AppModule {}
    const base = await start(AppModule);
    expect(await status(base, '/admin/cpu')).toBe(404);
    expect(await status(base, '/cpu')).toBe(404);
  },
);

claim(
  `${page}#how-paths-combine`,
  'the order is global prefix, URI version, module path, controller path, method path',
  async () => {
    const base = await start(
      samples(page, {files: modules}).require('app.module').AppModule,
      (app) => {
        app.setGlobalPrefix('api');
        app.enableVersioning({type: VersioningType.URI, defaultVersion: '1'});
      },
    );
    expect(await status(base, '/api/v1/admin/dashboard/stats/visitors')).toBe(200);
    expect(await status(base, '/api/admin/dashboard/stats/visitors')).toBe(404);
  },
);

const internalModules = () =>
  compileModule(`
    import { Controller, Get, Module } from '@nestjs/common';
    @Controller('reports') export class ReportsController { @Get() get() { return 'r'; } }
    @Module({ controllers: [ReportsController] }) export class ReportsModule {}
    @Controller('exports') export class ExportsController { @Get() get() { return 'e'; } }
    @Module({ controllers: [ExportsController] }) export class ExportsModule {}`);

claim(
  `${page}#how-paths-combine`,
  "the page's internal tree: children listed as classes share the parent's path, the entry without module adds only a segment",
  async () => {
    const {ReportsModule, ExportsModule} = internalModules();
    // The page's fragment, evaluated with these two modules in scope.
    const source = fragment(page, 'how-paths-combine', "path: 'internal'").value;
    const register = new Function(
      'RouterModule',
      'ReportsModule',
      'ExportsModule',
      `return ${source.trim().replace(/;$/, '')};`,
    );
    @Module({
      imports: [ReportsModule, ExportsModule, register(RouterModule, ReportsModule, ExportsModule)],
    })
    class AppModule {}
    const base = await start(AppModule);
    expect(await status(base, '/internal/reports')).toBe(200);
    expect(await status(base, '/internal/exports')).toBe(200);
    expect(await status(base, '/reports')).toBe(404);
  },
);

claim(
  `${page}#how-paths-combine`,
  'a module attached at two places gets only one path (the last registered), and its controllers do not appear twice',
  async () => {
    const {ReportsModule} = internalModules();
    @Module({
      imports: [
        ReportsModule,
        RouterModule.register([
          {path: 'a', module: ReportsModule},
          {path: 'b', module: ReportsModule},
        ]),
      ],
    })
    class AppModule {}
    const base = await start(AppModule);
    expect([await status(base, '/a/reports'), await status(base, '/b/reports')].sort()).toEqual([
      200, 404,
    ]);
  },
);

claim(
  `${page}#router-module`,
  'module paths apply to HTTP controllers only: a message pattern of a module in the tree keeps its name',
  async () => {
    const {MathModule} = compileModule(`
    import { Controller, Module } from '@nestjs/common';
    import { MessagePattern } from '@nestjs/microservices';
    @Controller('math')
    export class MathController { @MessagePattern('sum') sum(data: number[]) { return data.reduce((a, b) => a + b, 0); } }
    @Module({ controllers: [MathController] })
    export class MathModule {}`);
    @Module({imports: [MathModule, RouterModule.register([{path: 'admin', module: MathModule}])]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false});
    apps.push(app);
    const {freePort} = await import('../../lib');
    const port = await freePort();
    app.connectMicroservice({transport: Transport.TCP, options: {host: '127.0.0.1', port}});
    await app.startAllMicroservices();
    await app.init();
    const client = ClientProxyFactory.create({
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port},
    });
    try {
      const {firstValueFrom} = nest('rxjs');
      expect(await firstValueFrom(client.send('sum', [1, 2, 3]))).toBe(6);
    } finally {
      client.close();
    }
  },
);

// Abuse cases: what a module path does not pass on.

describe('guards and the route tree', () => {
  const guarded = (guard: string): Record<string, string> => ({
    ...modules,
    'admin.module': `
    import { CanActivate, Controller, Get, Module, UseGuards } from '@nestjs/common';
    import { APP_GUARD } from '@nestjs/core';
    export class AdminOnly implements CanActivate { canActivate() { return false; } }
    @Controller('users')
    ${guard === 'controller' ? '@UseGuards(AdminOnly)' : ''}
    export class UsersController { @Get() list() { return ['aria']; } }
    @Module({
      controllers: [UsersController],
      providers: [${guard === 'app' ? '{ provide: APP_GUARD, useClass: AdminOnly }' : ''}],
    })
    export class AdminModule {}`,
  });

  claim.abuse(
    `${page}#how-paths-combine`,
    "a guard on AdminModule's controllers leaves /admin/dashboard/stats/visitors open to an anonymous caller",
    async () => {
      const base = await start(
        samples(page, {files: guarded('controller')}).require('app.module').AppModule,
      );
      expect(await status(base, '/admin/users')).toBe(403);
      const stats = await fetch(`${base}/admin/dashboard/stats/visitors`);
      expect(stats.status).toBe(200);
      expect(await stats.json()).toEqual({today: 42});
    },
  );

  claim.abuse(
    `${page}#how-paths-combine`,
    'an APP_GUARD provided in AdminModule is global: it also refuses /cats, outside the /admin tree',
    async () => {
      const base = await start(
        samples(page, {files: guarded('app')}).require('app.module').AppModule,
      );
      expect(await status(base, '/admin/users')).toBe(403);
      expect(await status(base, '/admin/dashboard/stats/visitors')).toBe(403);
      expect(await status(base, '/cats')).toBe(403);
    },
  );
});

// Middleware applied by a module of the tree: the page's DashboardModule names its controller.
claim.abuse(
  `${page}#middleware-in-the-tree`,
  "an AuthMiddleware that refuses everyone: the page's forRoutes(StatsController) refuses /admin/dashboard/stats/visitors; forRoutes('stats/*') guards /stats/... and serves the route to an anonymous caller, the full path refuses it (output middleware-module-path); exclude('stats/visitors') spares nothing, exclude() of the full path does",
  async () => {
    const files: Record<string, string> = {
      ...modules,
      'auth.middleware': `
    import { Injectable, NestMiddleware } from '@nestjs/common';
    @Injectable()
    export class AuthMiddleware implements NestMiddleware {
      use(req: any, res: any, next: () => void) { res.statusCode = 401; res.end('Unauthorized'); }
    }`,
    };
    // The page's own dashboard.module, not the test's stand-in.
    delete files['dashboard.module'];
    const lines: string[] = [];
    for (const [label, forRoutes] of [
      ['forRoutes(StatsController):         ', undefined],
      ["forRoutes('stats/*'):               ", "forRoutes('stats/*')"],
      ["forRoutes('admin/dashboard/stats/*'):", "forRoutes('admin/dashboard/stats/*')"],
    ] as const) {
      const edit = forRoutes
        ? {'dashboard.module': [['forRoutes(StatsController)', forRoutes] as [string, string]]}
        : undefined;
      const base = await start(samples(page, {files, edit}).require('app.module').AppModule);
      lines.push(
        `${label} GET /admin/dashboard/stats/visitors ${await status(base, '/admin/dashboard/stats/visitors')}`,
      );
      // The middleware runs where its path points, and nowhere outside DashboardModule's routes.
      expect(await status(base, '/stats/visitors')).toBe(
        forRoutes === "forRoutes('stats/*')" ? 401 : 404,
      );
      expect(await status(base, '/cats')).toBe(200);
    }
    expectOutput(page, 'middleware-module-path', lines.join('\n'));
    // exclude() takes paths as written too: only the full path spares the route.
    for (const [excluded, expected] of [
      ['stats/visitors', 401],
      ['admin/dashboard/stats/visitors', 200],
    ] as const) {
      const edit = {
        'dashboard.module': [
          [
            'apply(AuthMiddleware).forRoutes',
            `apply(AuthMiddleware).exclude('${excluded}').forRoutes`,
          ] as [string, string],
        ],
      };
      const base = await start(samples(page, {files, edit}).require('app.module').AppModule);
      expect(await status(base, '/admin/dashboard/stats/visitors')).toBe(expected);
    }
  },
);
