/**
 * Helpers for the combined tests: one application assembled from the samples of several pages, as a
 * reader who follows each of those pages assembles it.
 *
 * `combine()` compiles every page's samples with `samples()` (so each page's `edit` must still match),
 * takes the files the combination needs, and compiles them together as one set, with the glue a
 * reader writes (an `AppModule`, a small resolver or controller that the pages describe but do not show).
 */
import {fragment, nest, samples, type SampleOptions, type SampleSet} from '../../lib';

/** The secret the combined apps read from JWT_SECRET and SESSION_SECRET (at least 32 characters). */
export const combinedSecret = 'combined-tests-8c1f5e2a9b7d3c6e0f4a8b2d6c1e9f3a';
/** Another secret of the same length: tokens signed with it must be refused. */
export const otherSecret = 'another-secret-0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4';

export const authPage = 'docs/security/authentication.md';

export interface Part {
  page: string;
  options?: SampleOptions;
  /** File of the page → name in the combined set (an array keeps the names). */
  take: string[] | Record<string, string>;
}

/**
 * One set made of the files `take`n from each part, plus `glue`. The first part's page names the set;
 * the other parts' files (and the glue) override its files of the same base name.
 */
export function combine(parts: Part[], glue: Record<string, string> = {}): SampleSet {
  const files: Record<string, string> = {};
  const sets = parts.map((part) => samples(part.page, part.options));
  parts.forEach((part, index) => {
    const take = Array.isArray(part.take)
      ? Object.fromEntries(part.take.map((name) => [name, name]))
      : part.take;
    for (const [from, to] of Object.entries(take)) {
      const source = sets[index].sources.get(from);
      if (source === undefined) {
        throw new Error(
          `combined: ${part.page} has no file ${from} (files: ${[...sets[index].sources.keys()].join(', ')})`,
        );
      }
      files[to] = source;
    }
  });
  // The taken files carry their page's edits already: the set is written without edits again.
  const {edit: _edited, ...first} = parts[0].options ?? {};
  return samples(parts[0].page, {...first, files: {...first.files, ...files, ...glue}});
}

/** The authentication chapter's constants.ts (a fence without a file name). */
export function jwtConstants(): string {
  return fragment(authPage, 'jwt-functionality', 'export const jwtConstants').value;
}

/** "Add JwtStrategy to the providers array of AuthModule, next to LocalStrategy." */
export const withJwtStrategy: Record<string, [string, string][]> = {
  'auth/auth.module': [
    [
      'providers: [AuthService, LocalStrategy]',
      'providers: [AuthService, LocalStrategy, JwtStrategy]',
    ],
    [
      "import { LocalStrategy } from './local.strategy';",
      "import { LocalStrategy } from './local.strategy';\nimport { JwtStrategy } from './jwt.strategy';",
    ],
  ],
};

/**
 * The authentication chapter's JWT application, as it stands at `under` (its `AuthModule` with
 * `JwtStrategy`, `UsersService`, login route), with `edits` on top. The files keep the page's names.
 */
export function authPart(
  under = 'protecting-routes',
  edits: Record<string, [string, string][]> = {},
): Part {
  const edit: Record<string, [string, string][]> = {};
  for (const [name, list] of Object.entries(withJwtStrategy)) edit[name] = [...list];
  for (const [name, list] of Object.entries(edits)) edit[name] = [...(edit[name] ?? []), ...list];
  return {
    page: authPage,
    options: {under, edit, files: {'auth/constants': jwtConstants()}},
    take: [
      'users/users.service',
      'users/users.module',
      'auth/auth.service',
      'auth/local.strategy',
      'auth/auth.module',
      'auth/jwt.strategy',
      'auth/jwt-auth.guard',
      'auth/local-auth.guard',
      'auth/constants',
      'app.controller',
    ],
  };
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: {'content-type': 'application/json', ...headers},
    body: JSON.stringify(body),
  });
}

/** Logs in through the authentication chapter's POST /auth/login and returns the access token. */
export async function login(base: string, username: string, password: string): Promise<string> {
  const response = await postJson(`${base}/auth/login`, {username, password});
  if (response.status !== 201) {
    throw new Error(`login of ${username} answered ${response.status}: ${await response.text()}`);
  }
  return (await response.json()).access_token;
}

export const users = {
  alice: ['alice', 'wonderland'],
  bob: ['bob', 'builder'],
} as const;

/** A token signed as the application signs its tokens, or with another secret, with the given claims. */
export function sign(
  payload: Record<string, unknown>,
  options: {secret?: string; expiresIn?: string | number; noTimestamp?: boolean} = {},
): string {
  const jwt = nest('jsonwebtoken');
  const {secret = combinedSecret, ...rest} = options;
  return jwt.sign(payload, secret, rest);
}

/** `GET` with an optional bearer token: status and parsed body. */
export async function getAs(
  url: string,
  token?: string,
  headers: Record<string, string> = {},
): Promise<{status: number; body: any}> {
  const response = await fetch(url, {
    headers: {...(token === undefined ? {} : {authorization: `Bearer ${token}`}), ...headers},
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return {status: response.status, body};
}
