import {existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync} from 'node:fs';
import {spawn} from 'node:child_process';
import {connect} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, afterEach, beforeAll, expect} from 'vitest';
import {claim, compileModule, expectOutput, fragment, listen, nest, samples} from '../../lib';
import {startChild} from './_child-app';

const {Module} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {MulterModule} = nest('@nestjs/platform-express');
const page = 'docs/techniques/file-upload.md';

let workdir: string;
let previousCwd: string;
beforeAll(() => {
  // './uploads' in the samples is relative to the working directory.
  previousCwd = process.cwd();
  workdir = mkdtempSync(join(tmpdir(), 'behaviour-upload-'));
  mkdirSync(join(workdir, 'uploads', 'photos'), {recursive: true});
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

async function start(controllers: unknown[], imports: unknown[] = []): Promise<string> {
  @Module({imports: imports as any[], controllers: controllers as any[]})
  class AppModule {}
  // abortOnError: false, so that a factory that throws fails the start instead of aborting the worker.
  const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
  close = () => app.close();
  return listen(app);
}

type Part =
  | [field: string, value: string]
  | [field: string, bytes: number, name: string, type?: string];
function form(...parts: Part[]): FormData {
  const data = new FormData();
  for (const part of parts) {
    if (typeof part[1] === 'string') data.append(part[0], part[1]);
    else
      data.append(
        part[0],
        new Blob([Buffer.alloc(part[1], 1)], {type: part[3] ?? 'image/jpeg'}),
        part[2],
      );
  }
  return data;
}
const post = (url: string, body: FormData | string, headers: Record<string, string> = {}) =>
  fetch(url, {method: 'POST', body, headers});

/** A controller around a handler fragment of the page. */
function controllerAround(section: string, contains: string, extra = ''): any {
  const method = fragment(page, section, contains).value.replace(/^import .*$/gm, '');
  return compileModule<any>(`
import { BadRequestException, Controller, Post, UploadedFile, UploadedFiles, UnsupportedMediaTypeException, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { diskStorage } from 'multer';
import { extname } from 'path';
@Controller('cats')
export class CatsController {
  catsService = { savePhoto: (photo: any) => ({ saved: photo.originalname }) };
${method}
${extra}
}
`).CatsController;
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#basic-example`,
    `FileInterceptor('photo') + @UploadedFile() give the file, @Body('caption') the text field (${lang})`,
    async () => {
      const {CatsController} = samples(page, {under: 'basic-example', lang}).require(
        'cats.controller',
      );
      const base = await start([CatsController]);
      const response = await post(
        `${base}/cats/photo`,
        form(['photo', 1234, 'tom.jpg'], ['caption', 'Tom on the sofa']),
      );
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({
        caption: 'Tom on the sofa',
        name: 'tom.jpg',
        size: 1234,
        type: 'image/jpeg',
      });
    },
  );
}

claim(
  `${page}#basic-example`,
  'a file under another field name is rejected with 400 "Unexpected field"',
  async () => {
    const {CatsController} = samples(page, {under: 'basic-example'}).require('cats.controller');
    const base = await start([CatsController]);
    const response = await post(`${base}/cats/photo`, form(['picture', 10, 'tom.jpg']));
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('Unexpected field');
  },
);

claim(
  `${page}#the-file-object`,
  'the handler receives the Express.Multer.File shown, with the contents in buffer (memory storage)',
  async () => {
    const {CatsController} = compileModule<any>(`
import { Controller, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
export const seen: any[] = [];
@Controller('cats')
export class CatsController {
  @Post('photo')
  @UseInterceptors(FileInterceptor('photo'))
  uploadPhoto(@UploadedFile() photo: any) {
    seen.push(photo);
    const { buffer, ...rest } = photo;
    return { ...rest, buffer: Buffer.isBuffer(buffer) ? buffer.length : null };
  }
}
`);
    const base = await start([CatsController]);
    const file = await (await post(`${base}/cats/photo`, form(['photo', 48213, 'tom.jpg']))).json();
    expect(file.buffer).toBe(48213);
    const {buffer, ...shown} = file;
    void buffer;
    expectOutput(page, 'file-object', shown);
  },
);

claim(
  `${page}#storage-limits-and-filters`,
  'diskStorage() writes the file under the chosen name; the object has destination, filename and path, no buffer',
  async () => {
    const CatsController = controllerAround(
      'storage-limits-and-filters',
      'diskStorage({',
      `
  @Post('inspect')
  @UseInterceptors(FileInterceptor('photo', { storage: diskStorage({ destination: './uploads/photos' }) }))
  inspect(@UploadedFile() photo: any) {
    return { keys: Object.keys(photo).sort() };
  }`,
    );
    const base = await start([CatsController]);
    const {path} = await (await post(`${base}/cats/photo`, form(['photo', 100, 'tom.jpg']))).json();
    expect(path).toMatch(/^uploads\/photos\/\d+-\d+\.jpg$/);
    expect(existsSync(join(workdir, path))).toBe(true);
    const {keys} = await (
      await post(`${base}/cats/inspect`, form(['photo', 100, 'tom.jpg']))
    ).json();
    expect(keys).toEqual([
      'destination',
      'encoding',
      'fieldname',
      'filename',
      'mimetype',
      'originalname',
      'path',
      'size',
    ]);
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#array-of-files`,
    `FilesInterceptor('photos', 10) gives an array; more files than maxCount is 400 (${lang})`,
    async () => {
      const {CatsController} = samples(page, {under: 'array-of-files', lang}).require(
        'cats.controller',
      );
      const base = await start([CatsController]);
      const ok = await post(
        `${base}/cats/gallery`,
        form(['photos', 10, 'tom.jpg'], ['photos', 10, 'misty.jpg']),
      );
      expect(await ok.json()).toEqual(['tom.jpg', 'misty.jpg']);
      const many = form(...Array.from({length: 11}, (_, i): Part => ['photos', 10, `cat${i}.jpg`]));
      const tooMany = await post(`${base}/cats/gallery`, many);
      expect(tooMany.status).toBe(400);
      expect((await tooMany.json()).message).toBe('Unexpected field');
    },
  );
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#multiple-files`,
    `FileFieldsInterceptor: an object keyed by field, arrays even for one file, a missing field absent (${lang})`,
    async () => {
      const {CatsController} = samples(page, {under: 'multiple-files', lang}).require(
        'cats.controller',
      );
      const base = await start([CatsController]);
      const both = await post(
        `${base}/cats/profile`,
        form(
          ['avatar', 10, 'me.png', 'image/png'],
          ['photos', 10, 'a.jpg'],
          ['photos', 10, 'b.jpg'],
        ),
      );
      expect(await both.json()).toEqual({avatar: 'me.png', photos: 2});
      const onlyPhotos = await post(`${base}/cats/profile`, form(['photos', 10, 'a.jpg']));
      expect(await onlyPhotos.json()).toEqual({photos: 1});
    },
  );
}

claim(
  `${page}#multiple-files`,
  'the object holds arrays and omits fields that were not sent',
  async () => {
    const {CatsController} = compileModule<any>(`
import { Controller, Post, UploadedFiles, UseInterceptors } from '@nestjs/common';
import { FileFieldsInterceptor } from '@nestjs/platform-express';
@Controller('cats')
export class CatsController {
  @Post('profile')
  @UseInterceptors(FileFieldsInterceptor([{ name: 'avatar', maxCount: 1 }, { name: 'photos', maxCount: 5 }]))
  upload(@UploadedFiles() files: any) {
    return Object.fromEntries(Object.entries(files).map(([k, v]: any) => [k, Array.isArray(v) ? v.length : typeof v]));
  }
}
`);
    const base = await start([CatsController]);
    expect(
      await (await post(`${base}/cats/profile`, form(['avatar', 10, 'me.png']))).json(),
    ).toEqual({avatar: 1});
    expect(
      (await post(`${base}/cats/profile`, form(['avatar', 10, 'a.png'], ['avatar', 10, 'b.png'])))
        .status,
    ).toBe(400);
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#any-files`,
    `AnyFilesInterceptor() accepts every field; one flat array with fieldname (${lang})`,
    async () => {
      const {CatsController} = samples(page, {under: 'any-files', lang}).require('cats.controller');
      const base = await start([CatsController]);
      const response = await post(
        `${base}/cats/attachments`,
        form(['invoice', 10, 'march.pdf', 'application/pdf'], ['photo', 10, 'tom.jpg']),
      );
      expect(await response.json()).toEqual(['invoice: march.pdf', 'photo: tom.jpg']);
    },
  );
}

const limitsController = () =>
  compileModule<any>(`
import { Controller, Post, UploadedFile, UploadedFiles, UnsupportedMediaTypeException, UseInterceptors } from '@nestjs/common';
import { FileInterceptor, AnyFilesInterceptor } from '@nestjs/platform-express';
const options = ${fragment(page, 'storage-limits-and-filters', 'fileFilter:')
    .value.replace(/^FileInterceptor\('photo', /, '')
    .replace(/\);\s*$/, '')};
@Controller('cats')
export class CatsController {
  @Post('photo')
  @UseInterceptors(FileInterceptor('photo', options))
  upload(@UploadedFile() photo: any) {
    return { received: photo ? photo.originalname : null };
  }
  @Post('skip')
  @UseInterceptors(AnyFilesInterceptor({ fileFilter: (req, file, cb) => cb(null, file.mimetype !== 'image/gif') }))
  skip(@UploadedFiles() files: any[]) {
    return files.map((f) => f.originalname);
  }
}
`).CatsController;

claim(
  `${page}#storage-limits-and-filters`,
  'a file above limits.fileSize is 413 Payload Too Large with the message "File too large"',
  async () => {
    const base = await start([limitsController()]);
    const response = await post(
      `${base}/cats/photo`,
      form(['photo', 2 * 1024 * 1024 + 1, 'big.jpg']),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      statusCode: 413,
      message: 'File too large',
      error: 'Payload Too Large',
    });
    expect((await post(`${base}/cats/photo`, form(['photo', 1024, 'small.jpg']))).status).toBe(201);
  },
);

claim(
  `${page}#storage-limits-and-filters`,
  'a file of exactly limits.fileSize bytes is already refused (413); one byte less passes',
  async () => {
    const base = await start([limitsController()]);
    expect(
      (await post(`${base}/cats/photo`, form(['photo', 2 * 1024 * 1024, 'edge.jpg']))).status,
    ).toBe(413);
    expect(
      (await post(`${base}/cats/photo`, form(['photo', 2 * 1024 * 1024 - 1, 'edge.jpg']))).status,
    ).toBe(201);
  },
);

claim(
  `${page}#storage-limits-and-filters`,
  'other limit violations (limits.files) are 400 Bad Request',
  async () => {
    const {CatsController} = compileModule<any>(`
import { Controller, Post, UploadedFiles, UseInterceptors } from '@nestjs/common';
import { AnyFilesInterceptor } from '@nestjs/platform-express';
@Controller('cats')
export class CatsController {
  @Post('many')
  @UseInterceptors(AnyFilesInterceptor({ limits: { files: 1 } }))
  many(@UploadedFiles() files: any[]) {
    return files.length;
  }
}
`);
    const base = await start([CatsController]);
    const response = await post(`${base}/cats/many`, form(['a', 10, 'a.jpg'], ['b', 10, 'b.jpg']));
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('Too many files');
  },
);

claim(
  `${page}#storage-limits-and-filters`,
  'fileFilter: an error passed to the callback reaches the client unchanged (415); false skips the file silently',
  async () => {
    const base = await start([limitsController()]);
    const rejected = await post(`${base}/cats/photo`, form(['photo', 10, 'tom.gif', 'image/gif']));
    expect(rejected.status).toBe(415);
    expect((await rejected.json()).message).toBe('Only JPEG and PNG images are allowed');
    const skipped = await post(
      `${base}/cats/skip`,
      form(['a', 10, 'a.gif', 'image/gif'], ['b', 10, 'b.jpg']),
    );
    expect(skipped.status).toBe(201);
    expect(await skipped.json()).toEqual(['b.jpg']);
  },
);

claim(
  `${page}#basic-example`,
  'a request that is not multipart is left alone: the handler runs with no file',
  async () => {
    const CatsController = controllerAround('example', 'The photo field is required');
    const base = await start([CatsController]);
    const response = await post(`${base}/cats/photo`, JSON.stringify({photo: 'x'}), {
      'content-type': 'application/json',
    });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('The photo field is required');
  },
);

claim(
  `${page}#example`,
  'without a file, @UploadedFile() is undefined and the check answers 400; with one, the handler goes on',
  async () => {
    const CatsController = controllerAround('example', 'The photo field is required');
    const base = await start([CatsController]);
    const missing = await post(`${base}/cats/photo`, form(['caption', 'no photo']));
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toBe('The photo field is required');
    expect(await (await post(`${base}/cats/photo`, form(['photo', 10, 'tom.jpg']))).json()).toEqual(
      {saved: 'tom.jpg'},
    );
  },
);

claim(
  `${page}#default-options`,
  "MulterModule.register({ dest }) makes the module's interceptors write to that folder under random names without extension",
  async () => {
    const {CatsModule} = samples(page, {
      under: 'default-options',
      files: {'cats.controller': thumbnailController()},
    }).require('cats.module');
    const base = await start([], [CatsModule]);
    const {storedAs, path} = await (
      await post(`${base}/cats/photo`, form(['photo', 10, 'tom.jpg']))
    ).json();
    expect(storedAs).toMatch(/^[0-9a-f]{32}$/);
    expect(path).toBe(`uploads/${storedAs}`);
    expect(readdirSync(join(workdir, 'uploads'))).toContain(storedAs);
  },
);

function thumbnailController(): string {
  const method = fragment(page, 'default-options', "@Post('thumbnail')").value;
  return `
import { BadRequestException, Controller, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
@Controller('cats')
export class CatsController {
${method}
  @Post('photo')
  @UseInterceptors(FileInterceptor('photo'))
  uploadPhoto(@UploadedFile() photo: any) {
    return { storedAs: photo.filename, path: photo.path };
  }
}
`;
}

claim(
  `${page}#default-options`,
  "interceptor options merge over the module's: the route keeps dest and gets its own fileSize limit",
  async () => {
    const {CatsModule} = samples(page, {
      under: 'default-options',
      files: {'cats.controller': thumbnailController()},
    }).require('cats.module');
    const base = await start([], [CatsModule]);
    const small = await (
      await post(`${base}/cats/thumbnail`, form(['thumbnail', 1000, 't.jpg']))
    ).json();
    expect(readdirSync(join(workdir, 'uploads'))).toContain(small.storedAs);
    expect(
      (await post(`${base}/cats/thumbnail`, form(['thumbnail', 256 * 1024 + 1, 't.jpg']))).status,
    ).toBe(413);
  },
);

claim(
  `${page}#default-options`,
  'the merge is shallow: limits on the interceptor replace the whole limits of the module',
  async () => {
    const {CatsController} = compileModule<any>(`
import { Controller, Post, UploadedFiles, UseInterceptors } from '@nestjs/common';
import { AnyFilesInterceptor } from '@nestjs/platform-express';
@Controller('cats')
export class CatsController {
  @Post('module') @UseInterceptors(AnyFilesInterceptor())
  a(@UploadedFiles() files: any[]) { return files.length; }
  @Post('route') @UseInterceptors(AnyFilesInterceptor({ limits: { fileSize: 1000 } }))
  b(@UploadedFiles() files: any[]) { return files.length; }
}
`);
    const base = await start([CatsController], [MulterModule.register({limits: {files: 1}})]);
    const two = () => form(['a', 10, 'a.jpg'], ['b', 10, 'b.jpg']);
    expect((await post(`${base}/cats/module`, two())).status).toBe(400);
    expect(await (await post(`${base}/cats/route`, two())).json()).toBe(2);
  },
);

claim(
  `${page}#default-options`,
  'options apply where MulterModule is imported: a shared module that imports register() and re-exports MulterModule passes them on',
  async () => {
    const {CatsController} = compileModule<any>(`
import { Controller, Post, UploadedFiles, UseInterceptors } from '@nestjs/common';
import { AnyFilesInterceptor } from '@nestjs/platform-express';
@Controller('cats')
export class CatsController {
  @Post() @UseInterceptors(AnyFilesInterceptor())
  a(@UploadedFiles() files: any[]) { return files.length; }
}
`);
    @Module({imports: [MulterModule.register({limits: {files: 1}})], exports: [MulterModule]})
    class UploadsModule {}
    @Module({imports: [UploadsModule], controllers: [CatsController]})
    class CatsModule {}
    @Module({controllers: [CatsController]})
    class PlainModule {}
    const two = () => form(['a', 10, 'a.jpg'], ['b', 10, 'b.jpg']);
    const shared = await start([], [CatsModule]);
    expect((await post(`${shared}/cats`, two())).status).toBe(400);
    await close?.();
    const plain = await start([], [PlainModule]);
    expect(await (await post(`${plain}/cats`, two())).json()).toBe(2);
  },
);

claim(
  `${page}#async-configuration`,
  'registerAsync with useFactory, useClass (createMulterOptions()) and useExisting configures the interceptors',
  async () => {
    const {MulterConfigService} = samples(page, {under: 'async-configuration'}).require(
      'multer-config.service',
    );
    const {CatsController} = compileModule<any>(`
import { Controller, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
@Controller('cats')
export class CatsController {
  @Post() @UseInterceptors(FileInterceptor('photo'))
  a(@UploadedFile() photo: any) { return { path: photo.path }; }
}
`);
    @Module({providers: [MulterConfigService], exports: [MulterConfigService]})
    class UploadConfigModule {}
    for (const multer of [
      MulterModule.registerAsync({useFactory: () => ({dest: './uploads'})}),
      MulterModule.registerAsync({useClass: MulterConfigService}),
      MulterModule.registerAsync({imports: [UploadConfigModule], useExisting: MulterConfigService}),
    ]) {
      const base = await start([CatsController], [multer]);
      expect(
        (await (await post(`${base}/cats`, form(['photo', 10, 'tom.jpg']))).json()).path,
      ).toMatch(/^uploads\/[0-9a-f]{32}$/);
      await close?.();
      close = undefined;
    }
    const base = await start(
      [CatsController],
      [MulterModule.registerAsync({useClass: MulterConfigService})],
    );
    expect(
      (await post(`${base}/cats`, form(['photo', 5 * 1024 * 1024 + 1, 'big.jpg']))).status,
    ).toBe(413);
  },
);

claim(
  `${page}#async-configuration`,
  'with the factory reading ConfigService, an env value is a string: Number() keeps the size limit, get<number>() alone loses it',
  async () => {
    const {ConfigModule, ConfigService} = nest('@nestjs/config');
    process.env.UPLOAD_DIR = './uploads';
    process.env.UPLOAD_MAX_BYTES = '100';
    const source = fragment(
      page,
      'async-configuration',
      "configService.get<string>('UPLOAD_DIR'",
    ).value.replace(/;\s*$/, '');
    const {asyncOptions} = compileModule<any>(`
import { MulterModule } from '@nestjs/platform-express';
import { ConfigModule, ConfigService } from '@nestjs/config';
export const asyncOptions = () => ${source};
`);
    const {CatsController} = compileModule<any>(`
import { Controller, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
@Controller('cats')
export class CatsController {
  @Post() @UseInterceptors(FileInterceptor('photo'))
  a(@UploadedFile() photo: any) { return { size: photo.size }; }
}
`);
    const base = await start(
      [CatsController],
      [ConfigModule.forRoot({ignoreEnvFile: true}), asyncOptions()],
    );
    expect((await post(`${base}/cats`, form(['photo', 100, 'tom.jpg']))).status).toBe(413);
    expect((await post(`${base}/cats`, form(['photo', 99, 'tom.jpg']))).status).toBe(201);
    await close?.();
    // What Number() prevents: the string from get<number>() makes busboy drop the limit.
    const unconverted = MulterModule.registerAsync({
      imports: [ConfigModule],
      useFactory: (configService: any) => ({
        limits: {fileSize: configService.get('UPLOAD_MAX_BYTES')},
      }),
      inject: [ConfigService],
    });
    const loose = await start(
      [CatsController],
      [ConfigModule.forRoot({ignoreEnvFile: true}), unconverted],
    );
    expect((await post(`${loose}/cats`, form(['photo', 1000, 'tom.jpg']))).status).toBe(201);
  },
);

// Abuse cases and failure modes.

/** A raw HTTP exchange (fetch cannot send a body that breaks the multipart format or stops halfway). */
function rawRequest(
  base: string,
  head: string,
  body: string,
  options: {abortAfter?: number} = {},
): Promise<string> {
  const {port, hostname} = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`${head}\r\n\r\n${body}`);
      if (options.abortAfter !== undefined)
        setTimeout(() => {
          socket.destroy();
          resolve('aborted');
        }, options.abortAfter);
    });
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

const truncatedPart =
  '--XYZ\r\nContent-Disposition: form-data; name="photo"; filename="tom.jpg"\r\nContent-Type: image/jpeg\r\n\r\nnot finished';

claim.failure(
  `${page}#file-upload`,
  "a multipart body that ends inside a part (no closing boundary) stops the whole process on the basic example's route (Multer 1.4.4-lts.1)",
  async () => {
    const set = samples(page, {under: 'basic-example'});
    // The app runs in a child process: the crash must not take the test worker with it.
    const script = `
      const { Module } = require('@nestjs/common');
      const { NestFactory } = require('@nestjs/core');
      const { CatsController } = require(${JSON.stringify(join(set.dir, 'cats.controller.js'))});
      class AppModule {}
      Module({ controllers: [CatsController] })(AppModule);
      NestFactory.create(AppModule, { logger: false }).then(async (app) => {
        await app.listen(0, '127.0.0.1');
        process.stdout.write('PORT ' + app.getHttpServer().address().port + '\\n');
      });`;
    const child = spawn(process.execPath, ['-e', script], {cwd: set.dir});
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const port = await new Promise<string>((resolve) =>
      child.stdout.on('data', (chunk) => {
        const m = /PORT (\d+)/.exec(String(chunk));
        if (m) resolve(m[1]);
      }),
    );
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    const base = `http://127.0.0.1:${port}`;
    // A well-formed upload works first.
    expect((await post(`${base}/cats/photo`, form(['photo', 10, 'tom.jpg']))).status).toBe(201);
    await rawRequest(
      base,
      `POST /cats/photo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: multipart/form-data; boundary=XYZ\r\nContent-Length: ${truncatedPart.length}`,
      truncatedPart,
    ).catch(() => '');
    const code = await Promise.race([
      exited,
      new Promise((r) => setTimeout(() => r('alive'), 5000)),
    ]);
    if (code === 'alive') child.kill('SIGKILL');
    expect(code).toBe(1);
    expect(stderr).toContain('Error: Unexpected end of form');
  },
);

claim.failure(
  `${page}#file-upload`,
  'on Fastify a multipart request gets 415 Unsupported Media Type before the interceptor runs',
  async () => {
    const {FastifyAdapter} = nest('@nestjs/platform-fastify');
    const {CatsController} = samples(page, {under: 'basic-example'}).require('cats.controller');
    @Module({controllers: [CatsController]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false});
    close = () => app.close();
    const response = await post(`${await listen(app)}/cats/photo`, form(['photo', 10, 'tom.jpg']));
    expect(response.status).toBe(415);
    expect((await response.json()).message).toMatch(
      /^Unsupported Media Type: multipart\/form-data/,
    );
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#basic-example`,
    `a request without the photo field, or not multipart at all, gets the page's 400 instead of a 500 (${lang})`,
    async () => {
      const {CatsController} = samples(page, {under: 'basic-example', lang}).require(
        'cats.controller',
      );
      const base = await start([CatsController]);
      for (const response of [
        await post(`${base}/cats/photo`, form(['caption', 'no photo'])),
        await post(`${base}/cats/photo`, '{"photo":"x"}', {'content-type': 'application/json'}),
      ]) {
        expect(response.status).toBe(400);
        expect((await response.json()).message).toBe('The photo field is required');
      }
    },
  );
}

claim.abuse(
  `${page}#basic-example`,
  'a multipart Content-Type without a boundary fails inside Multer with a 500',
  async () => {
    const {CatsController} = samples(page, {under: 'basic-example'}).require('cats.controller');
    const base = await start([CatsController]);
    const response = await post(`${base}/cats/photo`, 'abc', {
      'content-type': 'multipart/form-data',
    });
    expect(response.status).toBe(500);
  },
);

claim.abuse(
  `${page}#storage-limits-and-filters`,
  'Multer sets no limits: the basic example takes a 30 MB file into memory',
  async () => {
    const {CatsController} = samples(page, {under: 'basic-example'}).require('cats.controller');
    const base = await start([CatsController]);
    const response = await post(`${base}/cats/photo`, form(['photo', 30 * 1024 * 1024, 'big.jpg']));
    expect(response.status).toBe(201);
    expect((await response.json()).size).toBe(30 * 1024 * 1024);
  },
);

claim.abuse(
  `${page}#storage-limits-and-filters`,
  "diskStorage: a ../../ file name stays in the folder (originalname is the last segment), but the client's .html extension is kept",
  async () => {
    const base = await start([controllerAround('storage-limits-and-filters', 'diskStorage({')]);
    const response = await post(
      `${base}/cats/photo`,
      form(['photo', 10, '../../public/evil.html', 'image/jpeg']),
    );
    const {path} = await response.json();
    expect(path).toMatch(/^uploads\/photos\/\d+-\d+\.html$/);
    expect(existsSync(join(workdir, path))).toBe(true);
    expect(existsSync(join(workdir, 'public'))).toBe(false);
  },
);

claim.abuse(
  `${page}#storage-limits-and-filters`,
  'diskStorage: a client that drops the connection halfway leaves its partial file in the folder',
  async () => {
    const base = await start([controllerAround('storage-limits-and-filters', 'diskStorage({')]);
    const folder = join(workdir, 'uploads', 'photos');
    const before = new Set(readdirSync(folder));
    const part =
      '--B\r\nContent-Disposition: form-data; name="photo"; filename="half.jpg"\r\nContent-Type: image/jpeg\r\n\r\n';
    await rawRequest(
      base,
      'POST /cats/photo HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: 1000000',
      part + 'x'.repeat(5000),
      {abortAfter: 300},
    );
    await new Promise((r) => setTimeout(r, 300));
    const left = readdirSync(folder).filter((name) => !before.has(name));
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/^\d+-\d+\.jpg$/);
    expect(statSync(join(folder, left[0])).size).toBe(5000);
  },
);

claim.failure(
  `${page}#storage-limits-and-filters`,
  'diskStorage creates its destination when the class is loaded: deleted afterwards, every upload fails with 500',
  async () => {
    const folder = join(workdir, 'uploads', 'photos');
    rmSync(folder, {recursive: true, force: true});
    // Loading the controller (its decorators call diskStorage()) creates the folder again.
    const CatsController = controllerAround('storage-limits-and-filters', 'diskStorage({');
    expect(existsSync(folder)).toBe(true);
    const base = await start([CatsController]);
    expect((await post(`${base}/cats/photo`, form(['photo', 10, 'a.jpg']))).status).toBe(201);
    rmSync(folder, {recursive: true, force: true});
    try {
      expect((await post(`${base}/cats/photo`, form(['photo', 10, 'a.jpg']))).status).toBe(500);
    } finally {
      mkdirSync(folder, {recursive: true});
    }
  },
);

claim.abuse(
  `${page}#storage-limits-and-filters`,
  'the fileFilter trusts the declared type: an HTML page sent as image/jpeg passes it',
  async () => {
    const {CatsController} = compileModule<any>(`
import { Controller, Post, UploadedFile, UnsupportedMediaTypeException, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
const options = ${fragment(page, 'storage-limits-and-filters', 'fileFilter:')
      .value.replace(/^FileInterceptor\('photo', /, '')
      .replace(/\);\s*$/, '')};
@Controller('cats')
export class CatsController {
  @Post('photo')
  @UseInterceptors(FileInterceptor('photo', options))
  upload(@UploadedFile() photo: any) {
    return { type: photo.mimetype, start: photo.buffer.toString('utf8', 0, 15) };
  }
}
`);
    const base = await start([CatsController]);
    const data = new FormData();
    data.append(
      'photo',
      new Blob(['<html><script>alert(1)</script></html>'], {type: 'image/jpeg'}),
      'cat.jpg',
    );
    const response = await post(`${base}/cats/photo`, data);
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({type: 'image/jpeg', start: '<html><script>a'});
  },
);

claim.abuse(
  `${page}#storage-limits-and-filters`,
  'a file refused for its size leaves nothing in the disk storage folder',
  async () => {
    const {CatsController} = compileModule<any>(`
import { Controller, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { diskStorage } from 'multer';
@Controller('cats')
export class CatsController {
  @Post('photo')
  @UseInterceptors(FileInterceptor('photo', { storage: diskStorage({ destination: './uploads/limited' }), limits: { fileSize: 1000 } }))
  upload(@UploadedFile() photo: any) {
    return { path: photo.path };
  }
}
`);
    const base = await start([CatsController]);
    const response = await post(`${base}/cats/photo`, form(['photo', 5000, 'big.jpg']));
    expect(response.status).toBe(413);
    expect(readdirSync(join(workdir, 'uploads', 'limited'))).toEqual([]);
  },
);

claim.abuse(
  `${page}#any-files`,
  "the page's AnyFilesInterceptor refuses an 11th file with 400 Too many files; without limits the interceptor takes 300 files under made-up field names",
  async () => {
    const {CatsController} = samples(page, {under: 'any-files'}).require('cats.controller');
    const base = await start([CatsController]);
    const files = (count: number) =>
      form(...Array.from({length: count}, (_, i): Part => [`field${i}`, 10, `f${i}.jpg`]));
    expect((await (await post(`${base}/cats/attachments`, files(10))).json()).length).toBe(10);
    const eleven = await post(`${base}/cats/attachments`, files(11));
    expect(eleven.status).toBe(400);
    expect((await eleven.json()).message).toBe('Too many files');
    await close?.();
    // What the limits prevent.
    const {CatsController: Unlimited} = samples(page, {
      under: 'any-files',
      edit: {
        'cats.controller': [
          [
            /AnyFilesInterceptor\(\{ limits: \{ files: 10, fileSize: 5 \* 1024 \* 1024 \} \}\)/,
            'AnyFilesInterceptor()',
          ],
        ],
      },
    }).require('cats.controller');
    const loose = await start([Unlimited]);
    const response = await post(`${loose}/cats/attachments`, files(300));
    expect(response.status).toBe(201);
    expect(await response.json()).toHaveLength(300);
  },
);

/** A multipart body of `count` one-byte files that ends inside a last part (no closing boundary). */
function manyFilesCutShort(count: number): string {
  let body = '';
  for (let i = 0; i < count; i += 1)
    body += `--XYZ\r\nContent-Disposition: form-data; name="f${i}"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nx\r\n`;
  return body + truncatedPart;
}

claim.failure(
  `${page}#any-files`,
  "3000 one-byte files and no closing boundary: the page's any-files route answers 400 and serves on; AnyFilesInterceptor() without limits overflows the stack in Multer's cleanup and the process exits (Multer 1.4.4-lts.1)",
  async () => {
    const body = manyFilesCutShort(3000);
    const head = `POST /cats/attachments HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: multipart/form-data; boundary=XYZ\r\nContent-Length: ${body.length}`;
    const script = `
      const { Module } = require('@nestjs/common');
      const { NestFactory } = require('@nestjs/core');
      const { CatsController } = require('./cats.controller.js');
      class AppModule {}
      Module({ controllers: [CatsController] })(AppModule);
      NestFactory.create(AppModule, { logger: false }).then(async (app) => {
        await app.listen(0, '127.0.0.1');
        console.log('READY http://127.0.0.1:' + app.getHttpServer().address().port);
      });`;
    const limited = startChild(samples(page, {under: 'any-files'}).dir, 'many-files.js', script);
    try {
      const [, base] = await limited.waitFor(/READY (\S+)/);
      const answer = await rawRequest(base, head, body).catch(() => '');
      expect(answer).toMatch(/^HTTP\/1\.1 400/);
      expect(answer).toContain('Too many files');
      expect(await limited.exited(500)).toBeNull();
      expect((await post(`${base}/cats/attachments`, form(['a', 10, 'a.jpg']))).status).toBe(201);
    } finally {
      await limited.stop();
    }
    // What the limit prevents: the same body on the interceptor without limits.
    const unlimitedSet = samples(page, {
      under: 'any-files',
      edit: {
        'cats.controller': [
          [
            /AnyFilesInterceptor\(\{ limits: \{ files: 10, fileSize: 5 \* 1024 \* 1024 \} \}\)/,
            'AnyFilesInterceptor()',
          ],
        ],
      },
    });
    const loose = startChild(unlimitedSet.dir, 'many-files-loose.js', script);
    try {
      const [, base] = await loose.waitFor(/READY (\S+)/);
      await rawRequest(base, head, body).catch(() => '');
      expect(await loose.exited()).toEqual({code: 1, signal: null});
      expect(loose.output()).toContain('RangeError: Maximum call stack size exceeded');
    } finally {
      await loose.stop();
    }
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#array-of-files`,
    `a request that is not multipart (JSON, or no body) gets an empty result from the array, multiple-files and any-files handlers, not a 500 (${lang})`,
    async () => {
      const controllers = ['array-of-files', 'multiple-files', 'any-files'].map(
        (under) => samples(page, {under, lang}).require('cats.controller').CatsController,
      );
      const expected: Record<string, unknown> = {
        gallery: [],
        profile: {photos: 0},
        attachments: [],
      };
      for (const [i, route] of ['gallery', 'profile', 'attachments'].entries()) {
        const base = await start([controllers[i]]);
        for (const response of [
          await post(`${base}/cats/${route}`, '{"photos":[]}', {
            'content-type': 'application/json',
          }),
          await fetch(`${base}/cats/${route}`, {method: 'POST'}),
        ]) {
          expect(response.status, route).toBe(201);
          expect(await response.json(), route).toEqual(expected[route]);
        }
        await close?.();
        close = undefined;
      }
    },
  );
}

claim.abuse(
  `${page}#storage-limits-and-filters`,
  'the diskStorage and thumbnail handlers answer 400 for a request without their file, not a 500',
  async () => {
    const base = await start([controllerAround('storage-limits-and-filters', 'diskStorage({')]);
    const disk = await post(`${base}/cats/photo`, form(['caption', 'no file']));
    expect(disk.status).toBe(400);
    expect((await disk.json()).message).toBe('The photo field is required');
    await close?.();
    const {CatsModule} = samples(page, {
      under: 'default-options',
      files: {'cats.controller': thumbnailController()},
    }).require('cats.module');
    const module = await start([], [CatsModule]);
    const thumbnail = await post(`${module}/cats/thumbnail`, '{}', {
      'content-type': 'application/json',
    });
    expect(thumbnail.status).toBe(400);
    expect((await thumbnail.json()).message).toBe('The thumbnail field is required');
  },
);

async function factoryApp(): Promise<string> {
  const {ConfigModule} = nest('@nestjs/config');
  const source = fragment(
    page,
    'async-configuration',
    "configService.get<string>('UPLOAD_DIR'",
  ).value.replace(/;\s*$/, '');
  const {asyncOptions} = compileModule<any>(`
import { MulterModule } from '@nestjs/platform-express';
import { ConfigModule, ConfigService } from '@nestjs/config';
export const asyncOptions = () => ${source};
`);
  const {CatsController} = compileModule<any>(`
import { Controller, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
@Controller('cats')
export class CatsController {
  @Post() @UseInterceptors(FileInterceptor('photo'))
  a(@UploadedFile() photo: any) { return { size: photo.size, path: photo.path ?? null }; }
}
`);
  return start([CatsController], [ConfigModule.forRoot({ignoreEnvFile: true}), asyncOptions()]);
}

claim.failure(
  `${page}#async-configuration`,
  "UPLOAD_MAX_BYTES and UPLOAD_DIR missing: the factory's defaults apply (5 MB, ./uploads); Number(undefined) alone would store every file with zero bytes, in memory",
  async () => {
    delete process.env.UPLOAD_MAX_BYTES;
    delete process.env.UPLOAD_DIR;
    const base = await factoryApp();
    const small = await (await post(`${base}/cats`, form(['photo', 1000, 'a.jpg']))).json();
    expect(small.size).toBe(1000);
    expect(small.path).toMatch(/^uploads\/[0-9a-f]{32}$/);
    expect((await post(`${base}/cats`, form(['photo', 5 * 1024 * 1024, 'big.jpg']))).status).toBe(
      413,
    );
    await close?.();
    // What the defaults and the check prevent: a NaN limit and no dest.
    const {CatsController} = compileModule<any>(`
import { Controller, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
@Controller('cats')
export class CatsController {
  @Post() @UseInterceptors(FileInterceptor('photo', { dest: undefined, limits: { fileSize: Number(undefined) } }))
  a(@UploadedFile() photo: any) { return { size: photo.size, inMemory: Buffer.isBuffer(photo.buffer) }; }
}
`);
    const loose = await start([CatsController]);
    expect(await (await post(`${loose}/cats`, form(['photo', 1000, 'a.jpg']))).json()).toEqual({
      size: 0,
      inMemory: true,
    });
  },
);

claim.failure(
  `${page}#async-configuration`,
  'UPLOAD_MAX_BYTES that is not a size (abc) stops the application at startup with the factory message',
  async () => {
    process.env.UPLOAD_MAX_BYTES = 'abc';
    try {
      await expect(factoryApp()).rejects.toThrow(
        'UPLOAD_MAX_BYTES must be a positive whole number of bytes',
      );
    } finally {
      delete process.env.UPLOAD_MAX_BYTES;
    }
  },
);

claim.failure(
  `${page}#async-configuration`,
  'UPLOAD_DIR= (empty, as from a .env line without a value): the factory still writes to ./uploads; an empty dest alone would keep the files in memory',
  async () => {
    process.env.UPLOAD_DIR = '';
    try {
      const base = await factoryApp();
      const stored = await (await post(`${base}/cats`, form(['photo', 1000, 'a.jpg']))).json();
      expect(stored.path).toMatch(/^uploads\/[0-9a-f]{32}$/);
    } finally {
      delete process.env.UPLOAD_DIR;
    }
    await close?.();
    // What the || prevents: get('UPLOAD_DIR', './uploads') returns the empty string, and Multer keeps the file in memory.
    const {CatsController} = compileModule<any>(`
import { Controller, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
@Controller('cats')
export class CatsController {
  @Post() @UseInterceptors(FileInterceptor('photo', { dest: '' }))
  a(@UploadedFile() photo: any) { return { path: photo.path ?? null, inMemory: Buffer.isBuffer(photo.buffer) }; }
}
`);
    const loose = await start([CatsController]);
    expect(await (await post(`${loose}/cats`, form(['photo', 1000, 'a.jpg']))).json()).toEqual({
      path: null,
      inMemory: true,
    });
  },
);
