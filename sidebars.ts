/**
 * The side menu. It mirrors the menu tree of the specification, in order.
 *
 * Each entry is declared once with `page(id, label)`. While `docs/<id>.md`
 * does not exist the entry renders as a greyed, non-link "pending" item; as
 * soon as the file lands it becomes a normal doc link. Writers add a page by
 * writing the markdown file and, for a brand-new route, one `page(...)` line.
 */
import type {SidebarsConfig} from '@docusaurus/plugin-content-docs';
import {escapeHtml} from './src/data/html';
import {links} from './src/data/links';
import {docFile} from './src/features/shell/node/docs';
import {archivedVersion} from './src/features/versions/versions';
import {referencePackages} from './src/features/api-reference/packages';

type SidebarItem = SidebarsConfig[string] extends infer S
  ? S extends readonly (infer I)[]
    ? I
    : never
  : never;

/** A doc entry, or a pending placeholder while the page is not written. */
function page(id: string, label: string): SidebarItem {
  if (docFile(id)) {
    return {type: 'doc', id, label, key: id};
  }
  return {
    type: 'html',
    className: 'menu-pending',
    value:
      `<span class="menu__link menu-pending__label" role="link" aria-disabled="true">` +
      `${escapeHtml(label)}<span class="menu-pending__hint">soon</span></span>`,
  };
}

function group(label: string, items: SidebarItem[], collapsed = true): SidebarItem {
  return {type: 'category', label, collapsible: true, collapsed, items};
}

function external(label: string, href: string): SidebarItem {
  return {type: 'link', label, href};
}

const sidebars = {
  docs: [
    page('introduction', 'Introduction'),
    group(
      'Overview',
      [
        page('first-steps', 'First steps'),
        page('controllers', 'Controllers'),
        page('providers', 'Providers'),
        page('modules', 'Modules'),
        page('middleware', 'Middleware'),
        page('exception-filters', 'Exception filters'),
        page('pipes', 'Pipes'),
        page('guards', 'Guards'),
        page('interceptors', 'Interceptors'),
        page('custom-decorators', 'Custom route decorators'),
      ],
      false,
    ),
    group('Fundamentals', [
      page('fundamentals/custom-providers', 'Custom providers'),
      page('fundamentals/async-providers', 'Asynchronous providers'),
      page('fundamentals/dynamic-modules', 'Dynamic modules'),
      page('fundamentals/injection-scopes', 'Injection scopes'),
      page('fundamentals/circular-dependency', 'Circular dependency'),
      page('fundamentals/module-ref', 'Module reference'),
      page('fundamentals/lazy-loading-modules', 'Lazy-loading modules'),
      page('fundamentals/execution-context', 'Execution context'),
      page('fundamentals/lifecycle-events', 'Lifecycle events'),
      page('fundamentals/platform-agnosticism', 'Platform agnosticism'),
      page('fundamentals/testing', 'Testing'),
    ]),
    group('Techniques', [
      page('techniques/database', 'Database'),
      page('techniques/mongodb', 'Mongo'),
      page('techniques/configuration', 'Configuration'),
      page('techniques/validation', 'Validation'),
      page('techniques/caching', 'Caching'),
      page('techniques/serialization', 'Serialization'),
      page('techniques/versioning', 'Versioning'),
      page('techniques/task-scheduling', 'Task scheduling'),
      page('techniques/queues', 'Queues'),
      page('techniques/logger', 'Logger'),
      page('techniques/cookies', 'Cookies'),
      page('techniques/events', 'Events'),
      page('techniques/compression', 'Compression'),
      page('techniques/file-upload', 'File upload'),
      page('techniques/streaming-files', 'Streaming files'),
      page('techniques/http-module', 'HTTP module'),
      page('techniques/session', 'Session'),
      page('techniques/mvc', 'Model-View-Controller'),
      page('techniques/performance', 'Performance (Fastify)'),
      page('techniques/server-sent-events', 'Server-Sent Events'),
    ]),
    group('Security', [
      page('security/authentication', 'Authentication'),
      page('security/authorization', 'Authorization'),
      page('security/encryption-and-hashing', 'Encryption and Hashing'),
      page('security/helmet', 'Helmet'),
      page('security/cors', 'CORS'),
      page('security/csrf', 'CSRF Protection'),
      page('security/rate-limiting', 'Rate limiting'),
    ]),
    group('GraphQL', [
      page('graphql/quick-start', 'Quick start'),
      page('graphql/resolvers', 'Resolvers'),
      page('graphql/mutations', 'Mutations'),
      page('graphql/subscriptions', 'Subscriptions'),
      page('graphql/scalars', 'Scalars'),
      page('graphql/directives', 'Directives'),
      page('graphql/plugins', 'Plugins'),
      page('graphql/interfaces', 'Interfaces'),
      page('graphql/unions-and-enums', 'Unions and Enums'),
      page('graphql/field-middleware', 'Field middleware'),
      page('graphql/mapped-types', 'Mapped types'),
      page('graphql/complexity', 'Complexity'),
      page('graphql/extensions', 'Extensions'),
      page('graphql/cli-plugin', 'CLI Plugin'),
      page('graphql/generating-sdl', 'Generating SDL'),
      page('graphql/other-features', 'Other features'),
      page('graphql/federation', 'Federation'),
    ]),
    group('WebSockets', [
      page('websockets/gateways', 'Gateways'),
      page('websockets/exception-filters', 'Exception filters'),
      page('websockets/pipes', 'Pipes'),
      page('websockets/guards', 'Guards'),
      page('websockets/interceptors', 'Interceptors'),
      page('websockets/adapter', 'Adapters'),
    ]),
    group('Microservices', [
      page('microservices/basics', 'Overview'),
      page('microservices/redis', 'Redis'),
      page('microservices/mqtt', 'MQTT'),
      page('microservices/nats', 'NATS'),
      page('microservices/rabbitmq', 'RabbitMQ'),
      page('microservices/kafka', 'Kafka'),
      page('microservices/grpc', 'gRPC'),
      page('microservices/custom-transport', 'Custom transporters'),
      page('microservices/exception-filters', 'Exception filters'),
      page('microservices/pipes', 'Pipes'),
      page('microservices/guards', 'Guards'),
      page('microservices/interceptors', 'Interceptors'),
    ]),
    page('standalone-applications', 'Standalone applications'),
    group('CLI', [
      page('cli/overview', 'Overview'),
      page('cli/monorepo', 'Workspaces'),
      page('cli/libraries', 'Libraries'),
      page('cli/usages', 'Usage'),
      page('cli/scripts', 'Scripts'),
    ]),
    group('OpenAPI', [
      page('openapi/introduction', 'Introduction'),
      page('openapi/types-and-parameters', 'Types and Parameters'),
      page('openapi/operations', 'Operations'),
      page('openapi/security', 'Security'),
      page('openapi/mapped-types', 'Mapped Types'),
      page('openapi/decorators', 'Decorators'),
      page('openapi/cli-plugin', 'CLI Plugin'),
      page('openapi/other-features', 'Other features'),
      page('openapi/migration-guide', 'Migration guide'),
    ]),
    group('Recipes', [
      page('recipes/crud-generator', 'CRUD generator'),
      page('recipes/hot-reload', 'Hot reload'),
      page('recipes/sql-typeorm', 'TypeORM'),
      page('recipes/mongodb', 'Mongoose'),
      page('recipes/sql-sequelize', 'Sequelize'),
      page('recipes/router-module', 'Router module'),
      page('recipes/swagger', 'Swagger'),
      page('recipes/terminus', 'Health checks (Terminus)'),
      page('recipes/cqrs', 'CQRS'),
      page('recipes/documentation', 'Documentation'),
      page('recipes/prisma', 'Prisma'),
      page('recipes/serve-static', 'Serve Static'),
    ]),
    group('FAQ', [
      page('faq/serverless', 'Serverless'),
      page('faq/http-adapter', 'HTTP adapter'),
      page('faq/global-prefix', 'Global path prefix'),
      page('faq/hybrid-application', 'Hybrid application'),
      page('faq/multiple-servers', 'HTTPS & multiple servers'),
      page('faq/request-lifecycle', 'Request lifecycle'),
      page('faq/common-errors', 'Common errors'),
      external('Examples', links.examples),
    ]),
    // Generated from the packages' declarations (src/features/api-reference), one page each.
    group(
      'API reference',
      referencePackages.map((pkg) => page(pkg.route, pkg.name)),
    ),
    page('migration-guide', 'Migration guide'),
    page('discover/companies', 'Who is using Nest?'),
    page('support', 'Support'),
    external('Official courses', links.courses),
    external('T-shirts and hoodies', links.shop),
    external('Enterprise support', links.enterprise),
    external('Version 7 docs', archivedVersion('v7').url),
  ],
} satisfies SidebarsConfig;

export default sidebars;
