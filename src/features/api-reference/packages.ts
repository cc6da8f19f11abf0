/**
 * The packages the API reference covers, in menu order, and where their entries live.
 *
 * One page per package (`/api/common`), one anchor per export (`/api/common#UseGuards`): see
 * README.md for the measurements behind that choice. Pure: used by the build (Node) and by the
 * tests.
 */
import {apiRoute} from './route.mjs';

export interface ReferencePackage {
  /** The npm name. */
  readonly name: string;
  /** The page's route under the site root, without the leading slash. */
  readonly route: string;
  /** The page's one-sentence description (front matter, llms.txt). */
  readonly description: string;
}

/** The route prefix of the reference (`/api/...`) and its docs folder (`docs/api`): ./route.mjs. */
export {apiRoute};

/** The search section (filter and label) of the reference's pages and entries. */
export const apiSection = 'API';

export const referencePackages: readonly ReferencePackage[] = [
  {
    name: '@nestjs/common',
    route: `${apiRoute}/common`,
    description:
      'Every export of @nestjs/common 8: the decorators, pipes, exceptions, interfaces and services of a Nest application.',
  },
  {
    name: '@nestjs/core',
    route: `${apiRoute}/core`,
    description:
      'Every export of @nestjs/core 8: the application factory, the module reference, the reflector and the HTTP adapter host.',
  },
  {
    name: '@nestjs/testing',
    route: `${apiRoute}/testing`,
    description:
      'Every export of @nestjs/testing 8: the testing module builder and the compiled testing module.',
  },
  {
    name: '@nestjs/microservices',
    route: `${apiRoute}/microservices`,
    description:
      'Every export of @nestjs/microservices 8: transports, clients, message decorators and contexts.',
  },
  {
    name: '@nestjs/websockets',
    route: `${apiRoute}/websockets`,
    description:
      'Every export of @nestjs/websockets 8: gateway decorators, lifecycle interfaces and the WebSocket exception.',
  },
  {
    name: '@nestjs/platform-express',
    route: `${apiRoute}/platform-express`,
    description:
      'Every export of @nestjs/platform-express 8: the Express adapter, the Express application type and the Multer file interceptors.',
  },
  {
    name: '@nestjs/platform-fastify',
    route: `${apiRoute}/platform-fastify`,
    description:
      'Every export of @nestjs/platform-fastify 8: the Fastify adapter and the Fastify application type.',
  },
  {
    name: '@nestjs/graphql',
    route: `${apiRoute}/graphql`,
    description:
      'Every export of @nestjs/graphql 9: the GraphQL module, resolver and schema decorators, scalars and mapped types.',
  },
  {
    name: '@nestjs/swagger',
    route: `${apiRoute}/swagger`,
    description:
      'Every export of @nestjs/swagger 5: the document builder, the Swagger module and the OpenAPI decorators.',
  },
];

/** The package a module specifier names (`@nestjs/common`, also for `@nestjs/common/...`). */
export function referencePackageOf(specifier: string): ReferencePackage | undefined {
  return referencePackages.find(
    (pkg) => specifier === pkg.name || specifier.startsWith(`${pkg.name}/`),
  );
}

/** The id of an export's anchor on its package page: the export's own name. */
export function anchorOf(name: string): string {
  return name;
}

/** The URL of an export's entry: `/api/common#UseGuards`. */
export function entryUrl(pkg: ReferencePackage, name: string, baseUrl = '/'): string {
  return `${baseUrl}${pkg.route}#${anchorOf(name)}`;
}
