/** Helpers for the GraphQL pages' tests: real apps, real HTTP. */
import {mkdtempSync, writeFileSync, mkdirSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, dirname} from 'node:path';
import {nest, listen} from '../../lib';

const {NestFactory} = nest('@nestjs/core');

export interface Started {
  app: any;
  base: string;
  close: () => Promise<void>;
}

/** Starts `module` (Express unless an adapter is given), listening on a free loopback port. */
export async function start(
  module: unknown,
  options: {adapter?: unknown; logger?: any; before?: (app: any) => void | Promise<void>} = {},
): Promise<Started> {
  const appOptions = {logger: options.logger ?? false};
  const app = options.adapter
    ? await NestFactory.create(module, options.adapter, appOptions)
    : await NestFactory.create(module, appOptions);
  await options.before?.(app);
  const base = await listen(app);
  return {app, base, close: () => app.close()};
}

export interface GqlResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** POSTs a GraphQL operation as JSON. */
export async function gql(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<GqlResponse> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {'content-type': 'application/json', ...headers},
    body: JSON.stringify({query, variables}),
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return {status: response.status, headers: response.headers, body};
}

/** A fresh temporary folder (outside the repository) with the given files. */
export function tempDir(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'nest-gql-'));
  for (const [name, content] of Object.entries(files)) {
    const target = join(dir, name);
    mkdirSync(dirname(target), {recursive: true});
    writeFileSync(target, content);
  }
  return dir;
}

/** An in-memory CatsService that the pages use without showing it. */
export const catsService = `
import { Injectable } from '@nestjs/common';

@Injectable()
export class CatsService {
  private readonly cats: any[] = [{ id: '1', name: 'Tom', age: 3, breed: 'Tabby' }];

  async findAll() {
    return this.cats;
  }

  async findOne(id: string) {
    return this.cats.find((cat) => cat.id === id);
  }

  async create(input: any) {
    const cat = { id: String(this.cats.length + 1), ...input };
    this.cats.push(cat);
    return cat;
  }
}
`;
