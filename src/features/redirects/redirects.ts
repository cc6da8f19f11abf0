/**
 * Legacy and alias routes, each sent to its new home. The config emits a
 * redirect only once its target page exists (see `emittedRedirects`); until
 * then the old URL behaves like any unknown path and lands on `/`.
 */
export interface Redirect {
  readonly from: string;
  readonly to: string;
}

export const redirects: readonly Redirect[] = [
  {from: '/components', to: '/providers'},
  {from: '/application-context', to: '/standalone-applications'},
  {from: '/techniques/sql', to: '/techniques/database'},
  {from: '/techniques/authentication', to: '/security/authentication'},
  {from: '/techniques/security', to: '/security/helmet'},
  {from: '/techniques/hot-reload', to: '/recipes/hot-reload'},
  {from: '/fundamentals/dependency-injection', to: '/fundamentals/custom-providers'},
  {from: '/fundamentals/async-components', to: '/fundamentals/async-providers'},
  {from: '/fundamentals/unit-testing', to: '/fundamentals/testing'},
  {from: '/fundamentals/e2e-testing', to: '/fundamentals/testing'},
  {from: '/graphql/resolvers-map', to: '/graphql/resolvers'},
  {from: '/graphql/guards-interceptors', to: '/graphql/other-features'},
  {from: '/graphql/tooling', to: '/graphql/other-features'},
  {from: '/graphql/enums', to: '/graphql/unions-and-enums'},
  {from: '/graphql/unions', to: '/graphql/unions-and-enums'},
  {from: '/recipes/crud-utilities', to: '/recipes/crud-generator'},
  {from: '/recipes/crud', to: '/recipes/crud-generator'},
  {from: '/cli/workspaces', to: '/cli/monorepo'},
];

/** The URL fragment that marks pages search engines must not index. */
export const noindexMarker = 'crud-utilities';
