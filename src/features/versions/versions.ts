/**
 * The versions of the NestJS documentation this site links to: the one it is (v8), the
 * framework's current docs (v11, docs.nestjs.com) and the archived majors. Pure data and
 * helpers, shared by the header's version menu, the "you are reading v8" note, the footer, the
 * side menu and the "report a problem" link (browser), and the tests (Node).
 *
 * `latestPaths` says, for each route of this site, where the same page lives in the current
 * docs, from that site's routing tables (June 2026). Most pages kept their path; a few moved
 * (`/recipes/swagger` is part of the OpenAPI chapter there). The API reference (`/api/...`,
 * generated from the packages' declarations) has no counterpart there: its pages lead to the
 * current docs' home. A unit test checks that every page of the menu (sidebars.ts) and every page
 * under docs/ has an entry.
 *
 * The archived majors (https://docs.nestjs.com/v7/ and older) are single-page apps that only
 * open at their root: a deep link such as `/v7/fundamentals/testing` is sent to the current
 * home page (docs.nestjs.com issue #1819). They are linked at their root only.
 */
import {links} from '../../data/links';
import {apiRoute} from '../api-reference/packages';

/** The NestJS major this site documents. */
export const siteMajor = 8;
/** The release the samples target. */
export const siteRelease = '8.4.7';
/** The major of the framework's current docs (docs.nestjs.com). */
export const latestMajor = 11;

/** An archived major, opened at its root only. */
export interface ArchivedVersion {
  /** `v7` */
  readonly id: string;
  readonly major: number;
  /** The root of that version's site, with a trailing slash. */
  readonly url: string;
}

/** The majors before this one whose docs are still online, newest first. */
export const archivedVersions: readonly ArchivedVersion[] = [7, 6, 5].map((major) => ({
  id: `v${major}`,
  major,
  url: `${links.currentDocs}/v${major}/`,
}));

/** The archived major `id` (`v7`). Throws for a major the site does not link to. */
export function archivedVersion(id: string): ArchivedVersion {
  const version = archivedVersions.find((candidate) => candidate.id === id);
  if (!version) throw new Error(`No archived docs version "${id}"`);
  return version;
}

/** For each route of this site, the path of the same page in the current docs. */
export const latestPaths: Readonly<Record<string, string>> = {
  '/': '/',
  '/first-steps': '/first-steps',
  '/controllers': '/controllers',
  '/providers': '/providers',
  '/modules': '/modules',
  '/middleware': '/middleware',
  '/exception-filters': '/exception-filters',
  '/pipes': '/pipes',
  '/guards': '/guards',
  '/interceptors': '/interceptors',
  '/custom-decorators': '/custom-decorators',
  '/fundamentals/custom-providers': '/fundamentals/custom-providers',
  '/fundamentals/async-providers': '/fundamentals/async-providers',
  '/fundamentals/dynamic-modules': '/fundamentals/dynamic-modules',
  '/fundamentals/injection-scopes': '/fundamentals/injection-scopes',
  '/fundamentals/circular-dependency': '/fundamentals/circular-dependency',
  '/fundamentals/module-ref': '/fundamentals/module-ref',
  '/fundamentals/lazy-loading-modules': '/fundamentals/lazy-loading-modules',
  '/fundamentals/execution-context': '/fundamentals/execution-context',
  '/fundamentals/lifecycle-events': '/fundamentals/lifecycle-events',
  '/fundamentals/platform-agnosticism': '/fundamentals/platform-agnosticism',
  '/fundamentals/testing': '/fundamentals/testing',
  '/techniques/database': '/techniques/database',
  '/techniques/mongodb': '/techniques/mongodb',
  '/techniques/configuration': '/techniques/configuration',
  '/techniques/validation': '/techniques/validation',
  '/techniques/caching': '/techniques/caching',
  '/techniques/serialization': '/techniques/serialization',
  '/techniques/versioning': '/techniques/versioning',
  '/techniques/task-scheduling': '/techniques/task-scheduling',
  '/techniques/queues': '/techniques/queues',
  '/techniques/logger': '/techniques/logger',
  '/techniques/cookies': '/techniques/cookies',
  '/techniques/events': '/techniques/events',
  '/techniques/compression': '/techniques/compression',
  '/techniques/file-upload': '/techniques/file-upload',
  '/techniques/streaming-files': '/techniques/streaming-files',
  '/techniques/http-module': '/techniques/http-module',
  '/techniques/session': '/techniques/session',
  '/techniques/mvc': '/techniques/mvc',
  '/techniques/performance': '/techniques/performance',
  '/techniques/server-sent-events': '/techniques/server-sent-events',
  '/security/authentication': '/security/authentication',
  '/security/authorization': '/security/authorization',
  '/security/encryption-and-hashing': '/security/encryption-and-hashing',
  '/security/helmet': '/security/helmet',
  '/security/cors': '/security/cors',
  '/security/csrf': '/security/csrf',
  '/security/rate-limiting': '/security/rate-limiting',
  '/graphql/quick-start': '/graphql/quick-start',
  '/graphql/resolvers': '/graphql/resolvers',
  '/graphql/mutations': '/graphql/mutations',
  '/graphql/subscriptions': '/graphql/subscriptions',
  '/graphql/scalars': '/graphql/scalars',
  '/graphql/directives': '/graphql/directives',
  '/graphql/plugins': '/graphql/plugins',
  '/graphql/interfaces': '/graphql/interfaces',
  '/graphql/unions-and-enums': '/graphql/unions-and-enums',
  '/graphql/field-middleware': '/graphql/field-middleware',
  '/graphql/mapped-types': '/graphql/mapped-types',
  '/graphql/complexity': '/graphql/complexity',
  '/graphql/extensions': '/graphql/extensions',
  '/graphql/cli-plugin': '/graphql/cli-plugin',
  '/graphql/generating-sdl': '/graphql/generating-sdl',
  '/graphql/other-features': '/graphql/other-features',
  '/graphql/federation': '/graphql/federation',
  '/websockets/gateways': '/websockets/gateways',
  '/websockets/exception-filters': '/websockets/exception-filters',
  '/websockets/pipes': '/websockets/pipes',
  '/websockets/guards': '/websockets/guards',
  '/websockets/interceptors': '/websockets/interceptors',
  '/websockets/adapter': '/websockets/adapter',
  '/microservices/basics': '/microservices/basics',
  '/microservices/redis': '/microservices/redis',
  '/microservices/mqtt': '/microservices/mqtt',
  '/microservices/nats': '/microservices/nats',
  '/microservices/rabbitmq': '/microservices/rabbitmq',
  '/microservices/kafka': '/microservices/kafka',
  '/microservices/grpc': '/microservices/grpc',
  '/microservices/custom-transport': '/microservices/custom-transport',
  '/microservices/exception-filters': '/microservices/exception-filters',
  '/microservices/pipes': '/microservices/pipes',
  '/microservices/guards': '/microservices/guards',
  '/microservices/interceptors': '/microservices/interceptors',
  '/standalone-applications': '/standalone-applications',
  '/cli/overview': '/cli/overview',
  '/cli/monorepo': '/cli/monorepo',
  '/cli/libraries': '/cli/libraries',
  '/cli/usages': '/cli/usages',
  '/cli/scripts': '/cli/scripts',
  '/openapi/introduction': '/openapi/introduction',
  '/openapi/types-and-parameters': '/openapi/types-and-parameters',
  '/openapi/operations': '/openapi/operations',
  '/openapi/security': '/openapi/security',
  '/openapi/mapped-types': '/openapi/mapped-types',
  '/openapi/decorators': '/openapi/decorators',
  '/openapi/cli-plugin': '/openapi/cli-plugin',
  '/openapi/other-features': '/openapi/other-features',
  '/openapi/migration-guide': '/openapi/introduction',
  '/recipes/crud-generator': '/recipes/crud-generator',
  '/recipes/hot-reload': '/recipes/hot-reload',
  '/recipes/sql-typeorm': '/recipes/sql-typeorm',
  '/recipes/mongodb': '/recipes/mongodb',
  '/recipes/sql-sequelize': '/recipes/sql-sequelize',
  '/recipes/router-module': '/recipes/router-module',
  '/recipes/swagger': '/openapi/introduction',
  '/recipes/terminus': '/recipes/terminus',
  '/recipes/cqrs': '/recipes/cqrs',
  '/recipes/documentation': '/recipes/documentation',
  '/recipes/prisma': '/recipes/prisma',
  '/recipes/serve-static': '/recipes/serve-static',
  '/faq/serverless': '/faq/serverless',
  '/faq/http-adapter': '/faq/http-adapter',
  '/faq/global-prefix': '/faq/global-prefix',
  '/faq/hybrid-application': '/faq/hybrid-application',
  '/faq/multiple-servers': '/faq/multiple-servers',
  '/faq/request-lifecycle': '/faq/request-lifecycle',
  '/faq/common-errors': '/faq/common-errors',
  '/migration-guide': '/migration-guide',
  '/discover/companies': '/discover/companies',
  '/support': '/support',
  '/enterprise': '/enterprise',
};

/**
 * A route of this site without query, fragment or trailing slash (`/controllers/?a#b` is
 * `/controllers`, and `` is `/`).
 */
export function normalizeRoute(route: string): string {
  const path = route.replace(/[?#].*$/s, '').replace(/\/+$/, '');
  return path.startsWith('/') ? path : `/${path}`;
}

/**
 * The path of the same page in the current docs, if there is one: from the table, or their home
 * for a page of the API reference (they have none).
 */
export function latestPath(route: string): string | undefined {
  const path = normalizeRoute(route);
  if (path === `/${apiRoute}` || path.startsWith(`/${apiRoute}/`)) return '/';
  return latestPaths[path];
}

/**
 * The URL of the same page in the current docs; the current docs' home for a route the table
 * does not list (a page added since, the search page).
 */
export function latestUrl(route: string): string {
  const path = latestPath(route) ?? '/';
  return `${links.currentDocs}${path === '/' ? '/' : path}`;
}
