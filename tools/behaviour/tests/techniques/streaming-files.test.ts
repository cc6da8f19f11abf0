import {spawnSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync} from 'node:fs';
import {request} from 'node:http';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, afterEach, beforeAll, expect} from 'vitest';
import {applyEdits, claim, compileModule, fragment, listen, nest, samples} from '../../lib';
import type {Edit} from '../../lib/samples';
import {startChild} from './_child-app';

const {Module} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {FastifyAdapter} = nest('@nestjs/platform-fastify');
const page = 'docs/techniques/streaming-files.md';

const csv = 'name,age\nTom,3\nMisty,5\n';
let workdir: string;
let previousCwd: string;
beforeAll(() => {
  // The samples read reports/latest.csv relative to process.cwd().
  previousCwd = process.cwd();
  workdir = mkdtempSync(join(tmpdir(), 'behaviour-streaming-'));
  mkdirSync(join(workdir, 'reports'));
  writeFileSync(join(workdir, 'reports', 'latest.csv'), csv);
  process.chdir(workdir);
});
afterAll(() => {
  process.chdir(previousCwd);
  rmSync(workdir, {recursive: true, force: true});
});

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function start(
  controller: unknown,
  platform: 'express' | 'fastify' = 'express',
): Promise<string> {
  @Module({controllers: [controller as any]})
  class AppModule {}
  const app =
    platform === 'fastify'
      ? await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false})
      : await NestFactory.create(AppModule, {logger: false});
  close = () => app.close();
  return listen(app);
}

/** A controller around a handler fragment of the page (a method shown without its class). */
function controllerAround(
  section: string,
  contains: string,
  imports = '',
  edits: Edit[] = [],
): any {
  const method = applyEdits(`${page}#${section}`, fragment(page, section, contains).value, edits);
  return compileModule<any>(`
import { Controller, Get, Header, NotFoundException, Param, Res, StreamableFile } from '@nestjs/common';
import { Response } from 'express';
import { createReadStream, existsSync, statSync } from 'fs';
import { join, resolve, sep } from 'path';
${imports}
@Controller('reports')
export class ReportsController {
${method}
}
`).ReportsController;
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#streamable-file-class`,
    `returning a StreamableFile over a read stream sends the file's bytes (${lang})`,
    async () => {
      const {ReportsController} = samples(page, {under: 'streamable-file-class', lang}).require(
        'reports.controller',
      );
      const base = await start(ReportsController);
      const response = await fetch(`${base}/reports/latest`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(csv);
    },
  );
}

claim(
  `${page}#cross-platform-support`,
  'without options the Content-Type is application/octet-stream',
  async () => {
    const {ReportsController} = samples(page, {under: 'streamable-file-class'}).require(
      'reports.controller',
    );
    const base = await start(ReportsController);
    const response = await fetch(`${base}/reports/latest`);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    await response.text();
  },
);

claim(
  `${page}#cross-platform-support`,
  'the same controller runs unchanged on Fastify (same bytes, same default Content-Type)',
  async () => {
    const {ReportsController} = samples(page, {under: 'streamable-file-class'}).require(
      'reports.controller',
    );
    const base = await start(ReportsController, 'fastify');
    const response = await fetch(`${base}/reports/latest`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(await response.text()).toBe(csv);
  },
);

claim(
  `${page}#streamable-file-class`,
  'a Buffer is sent with a Content-Length equal to its length',
  async () => {
    const ReportsController = controllerAround('streamable-file-class', "@Get('summary')");
    const base = await start(ReportsController);
    const response = await fetch(`${base}/reports/summary`);
    const body = await response.text();
    expect(body).toBe('name,age,breed\nTom,3,Siamese\nMisty,5,Persian');
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
  },
);

claim(
  `${page}#setting-the-headers`,
  'type and disposition become Content-Type and Content-Disposition; a stream gets no Content-Length',
  async () => {
    const ReportsController = controllerAround('setting-the-headers', 'disposition:');
    for (const platform of ['express', 'fastify'] as const) {
      const base = await start(ReportsController, platform);
      const response = await fetch(`${base}/reports/latest`);
      expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(response.headers.get('content-disposition')).toBe(
        'attachment; filename="latest-report.csv"',
      );
      expect(response.headers.get('content-length')).toBeNull();
      expect(await response.text()).toBe(csv);
      await close?.();
      close = undefined;
    }
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#setting-the-headers`,
    `headers set with res.set() under @Res({ passthrough: true }) are sent with the stream (${lang})`,
    async () => {
      const {ReportsController} = samples(page, {under: 'setting-the-headers', lang}).require(
        'reports.controller',
      );
      const base = await start(ReportsController);
      const response = await fetch(`${base}/reports/latest`);
      expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(response.headers.get('content-disposition')).toBe(
        'attachment; filename="latest-report.csv"',
      );
      expect(await response.text()).toBe(csv);
    },
  );
}

claim(
  `${page}#setting-the-headers`,
  'a header set on the response wins over the StreamableFile option (@Header too)',
  async () => {
    const {ReportsController} = compileModule<any>(`
import { Controller, Get, Header, StreamableFile } from '@nestjs/common';
@Controller('reports')
export class ReportsController {
  @Get('latest')
  @Header('Content-Type', 'text/csv')
  getLatest() {
    return new StreamableFile(Buffer.from('a,b'), { type: 'application/pdf' });
  }
}
`);
    const base = await start(ReportsController);
    const response = await fetch(`${base}/reports/latest`);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    await response.text();
  },
);

claim(
  `${page}#setting-the-headers`,
  'with a plain @Res() the returned StreamableFile is ignored and no response comes',
  async () => {
    const {ReportsController} = compileModule<any>(`
import { Controller, Get, Res, StreamableFile } from '@nestjs/common';
@Controller('reports')
export class ReportsController {
  @Get('latest')
  getLatest(@Res() res: any) {
    return new StreamableFile(Buffer.from('a,b'));
  }
}
`);
    const base = await start(ReportsController);
    const outcome = await fetch(`${base}/reports/latest`, {signal: AbortSignal.timeout(700)}).then(
      () => 'answered',
      (error: Error) => error.name,
    );
    expect(outcome).toBe('TimeoutError');
  },
);

claim(
  `${page}#streamable-file-class`,
  'a missing file ends the whole process on Express when nothing listens for the stream error',
  async () => {
    const empty = mkdtempSync(join(tmpdir(), 'behaviour-streaming-missing-'));
    const set = samples(page, {under: 'streamable-file-class'});
    const runner = join(set.dir, 'crash-runner.js');
    writeFileSync(
      runner,
      `
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { Module } = require('@nestjs/common');
const { ReportsController } = require('./reports.controller.js');
class AppModule {}
Module({ controllers: [ReportsController] })(AppModule);
(async () => {
  const app = await NestFactory.create(AppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  require('http').get(url + '/reports/latest', () => {}).on('error', () => {});
  setTimeout(() => { console.log('still alive'); process.exit(0); }, 3000);
})();
`,
    );
    const result = spawnSync(process.execPath, [runner], {
      cwd: empty,
      encoding: 'utf8',
      timeout: 20_000,
    });
    rmSync(empty, {recursive: true, force: true});
    expect(result.stdout).not.toContain('still alive');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/ENOENT: no such file or directory/);
  },
);

claim(
  `${page}#streamable-file-class`,
  'the checked handler answers 404 for a missing file and streams the file when it exists',
  async () => {
    const ReportsController = controllerAround('streamable-file-class', 'existsSync(path)');
    const base = await start(ReportsController);
    const present = await fetch(`${base}/reports/latest`);
    expect(await present.text()).toBe(csv);
    rmSync(join(workdir, 'reports', 'latest.csv'));
    try {
      const missing = await fetch(`${base}/reports/latest`);
      expect(missing.status).toBe(404);
      expect((await missing.json()).message).toBe('No report has been generated yet');
    } finally {
      writeFileSync(join(workdir, 'reports', 'latest.csv'), csv);
    }
  },
);

const unchecked = () =>
  compileModule<any>(`
import { Controller, Get, StreamableFile } from '@nestjs/common';
import { createReadStream } from 'fs';
@Controller('reports')
export class ReportsController {
  @Get('listened')
  listened() {
    const file = createReadStream('/nonexistent/latest.csv');
    file.on('error', () => undefined);
    return new StreamableFile(file);
  }
  @Get('plain')
  plain() {
    return new StreamableFile(createReadStream('/nonexistent/latest.csv'));
  }
}
`).ReportsController;

claim(
  `${page}#streamable-file-class`,
  "on Express an 'error' listener keeps the process alive but the response never finishes",
  async () => {
    const base = await start(unchecked());
    const outcome = await fetch(`${base}/reports/listened`, {
      signal: AbortSignal.timeout(700),
    }).then(
      () => 'answered',
      (error: Error) => error.name,
    );
    expect(outcome).toBe('TimeoutError');
  },
);

claim(
  `${page}#streamable-file-class`,
  'on Fastify an unreadable file fails the request with 500 and the process survives',
  async () => {
    const base = await start(unchecked(), 'fastify');
    expect((await fetch(`${base}/reports/plain`)).status).toBe(500);
    expect((await fetch(`${base}/reports/plain`)).status).toBe(500);
  },
);

// Abuse cases and failure modes.

/** Open file descriptors of this process that point at `file`. */
function openDescriptors(file: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  }).length;
}

/** Starts `count` downloads of `path`, each dropped by the client after the first 64 KB. */
async function cancelledDownloads(base: string, path: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    await new Promise<void>((done) => {
      const req = request(`${base}${path}`, (res) => {
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > 64 * 1024) {
            req.destroy();
            setTimeout(done, 100);
          }
        });
      });
      req.on('error', () => undefined);
      req.end();
    });
  }
  await new Promise((r) => setTimeout(r, 300));
}

/** Runs `body` with reports/latest.csv replaced by a 20 MB file. */
async function withLargeReport(body: (file: string) => Promise<void>): Promise<void> {
  const file = join(workdir, 'reports', 'latest.csv');
  writeFileSync(file, Buffer.alloc(20 * 1024 * 1024, 65));
  try {
    await body(file);
  } finally {
    writeFileSync(file, csv);
  }
}

claim.failure(
  `${page}#streamable-file-class`,
  "on Express, each download the client cancels leaves the first sample's file descriptor open; the page's close listener closes it",
  async () => {
    await withLargeReport(async (file) => {
      const {ReportsController} = samples(page, {under: 'streamable-file-class'}).require(
        'reports.controller',
      );
      const base = await start(ReportsController);
      const before = openDescriptors(file);
      await cancelledDownloads(base, '/reports/latest', 3);
      expect(openDescriptors(file) - before).toBe(3);
      await close?.();
      close = undefined;
      const Closing = controllerAround('streamable-file-class', "res.on('close'");
      const guarded = await start(Closing);
      const again = openDescriptors(file);
      await cancelledDownloads(guarded, '/reports/latest', 3);
      expect(openDescriptors(file)).toBe(again);
      // A complete download still gets the whole file.
      expect((await (await fetch(`${guarded}/reports/latest`)).arrayBuffer()).byteLength).toBe(
        20 * 1024 * 1024,
      );
    });
  },
);

claim.failure(
  `${page}#streamable-file-class`,
  'on Fastify, a cancelled download of the first sample leaves no descriptor open (Fastify destroys the stream)',
  async () => {
    await withLargeReport(async (file) => {
      const {ReportsController} = samples(page, {under: 'streamable-file-class'}).require(
        'reports.controller',
      );
      const base = await start(ReportsController, 'fastify');
      const before = openDescriptors(file);
      await cancelledDownloads(base, '/reports/latest', 3);
      expect(openDescriptors(file)).toBe(before);
    });
  },
);

claim.abuse(
  `${page}#file-names-from-the-request`,
  "..%2F in the name reaches the handler as ../ on both platforms; the page's check answers 404 for it, for an absolute name and for a folder, and serves a file of the folder",
  async () => {
    writeFileSync(join(workdir, 'secret.txt'), 'DB_PASSWORD=hunter2');
    mkdirSync(join(workdir, 'reports', 'archive'), {recursive: true});
    const Checked = controllerAround('file-names-from-the-request', "@Get(':name')");
    // On Fastify the page says to leave out res and its close listener.
    const CheckedFastify = controllerAround('file-names-from-the-request', "@Get(':name')", '', [
      ['  @Res({ passthrough: true }) res: Response,\n', ''],
      ["  res.on('close', () => file.destroy());\n", ''],
    ]);
    const naive = compileModule<any>(`
import { Controller, Get, Param, StreamableFile } from '@nestjs/common';
import { createReadStream } from 'fs';
import { join } from 'path';
@Controller('naive')
export class NaiveController {
  @Get(':name')
  get(@Param('name') name: string) {
    return new StreamableFile(createReadStream(join(process.cwd(), 'reports', name)));
  }
}
`).NaiveController;
    for (const platform of ['express', 'fastify'] as const) {
      @Module({controllers: [platform === 'fastify' ? CheckedFastify : Checked, naive]})
      class AppModule {}
      const app =
        platform === 'fastify'
          ? await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false})
          : await NestFactory.create(AppModule, {logger: false});
      close = () => app.close();
      const base = await listen(app);
      // What the check prevents: the same name in a plain join() reads the file outside the folder.
      expect(await (await fetch(`${base}/naive/..%2Fsecret.txt`)).text()).toBe(
        'DB_PASSWORD=hunter2',
      );
      for (const name of [
        '..%2Fsecret.txt',
        '..%2F..%2F..%2Fetc%2Fhostname',
        encodeURIComponent(join(workdir, 'secret.txt')),
        'archive',
        '.',
      ]) {
        expect((await fetch(`${base}/reports/${name}`)).status, `${platform} ${name}`).toBe(404);
      }
      expect(await (await fetch(`${base}/reports/latest.csv`)).text()).toBe(csv);
      await close();
      close = undefined;
    }
  },
);

claim.failure(
  `${page}#streamable-file-class`,
  'the close-listener handler is Express-only: on Fastify the injected reply has no on(), and the request fails with 500',
  async () => {
    const Closing = controllerAround('streamable-file-class', "res.on('close'");
    const base = await start(Closing, 'fastify');
    const response = await fetch(`${base}/reports/latest`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({statusCode: 500, message: 'Internal server error'});
  },
);

claim.failure(
  `${page}#file-names-from-the-request`,
  'on Express, downloads through the :name handler that the client cancels leave no file descriptor open',
  async () => {
    await withLargeReport(async (file) => {
      const Checked = controllerAround('file-names-from-the-request', "@Get(':name')");
      const base = await start(Checked);
      const before = openDescriptors(file);
      await cancelledDownloads(base, '/reports/latest.csv', 3);
      expect(openDescriptors(file)).toBe(before);
    });
  },
);

claim.failure(
  `${page}#setting-the-headers`,
  "with no report on disk, the last reports.controller answers 404 on Express and the process serves on (the unchecked stream's ENOENT would end it)",
  async () => {
    const set = samples(page, {under: 'setting-the-headers'});
    // The child's working directory is the samples folder, which has no reports/ folder.
    const child = startChild(
      set.dir,
      'missing-report.js',
      `
      const { Module } = require('@nestjs/common');
      const { NestFactory } = require('@nestjs/core');
      const { ReportsController } = require('./reports.controller.js');
      class AppModule {}
      Module({ controllers: [ReportsController] })(AppModule);
      NestFactory.create(AppModule, { logger: false }).then(async (app) => {
        await app.listen(0, '127.0.0.1');
        console.log('READY http://127.0.0.1:' + app.getHttpServer().address().port);
      });`,
    );
    try {
      const [, base] = await child.waitFor(/READY (\S+)/);
      for (let i = 0; i < 2; i += 1) {
        const response = await fetch(`${base}/reports/latest`);
        expect(response.status).toBe(404);
        expect((await response.json()).message).toBe('No report has been generated yet');
      }
      expect(await child.exited(300)).toBeNull();
    } finally {
      await child.stop();
    }
  },
);

claim.failure(
  `${page}#setting-the-headers`,
  'on Express, cancelled downloads through the last reports.controller leave no file descriptor open',
  async () => {
    await withLargeReport(async (file) => {
      const {ReportsController} = samples(page, {under: 'setting-the-headers'}).require(
        'reports.controller',
      );
      const base = await start(ReportsController);
      const before = openDescriptors(file);
      await cancelledDownloads(base, '/reports/latest', 3);
      expect(openDescriptors(file)).toBe(before);
    });
  },
);
