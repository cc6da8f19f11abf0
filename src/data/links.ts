/**
 * Every external URL the site links to, in one place. Components, the
 * Docusaurus config and the sidebar read from here; nothing else hard-codes a
 * third-party address.
 */
export interface ExternalLinks {
  /** The framework's website. */
  readonly website: string;
  /** The official video courses. */
  readonly courses: string;
  /** The official merchandise shop (T-shirts, hoodies, accessories). */
  readonly shop: string;
  /** The external enterprise support site that `/consulting` leaves for. */
  readonly enterprise: string;
  /**
   * The framework's current documentation (NestJS 11), which also hosts the archived majors
   * under `/v7/`, `/v6/`, ... (see src/features/versions). No trailing slash.
   */
  readonly currentDocs: string;
  /** Example applications in the framework's repository. */
  readonly examples: string;
  /** Base URL of "Suggest edits" links; a page's path under `docs/` is appended. */
  readonly editBase: string;
  /** "Report a problem with this page": a new issue in the docs repository (src/features/feedback). */
  readonly docsIssues: string;
  readonly github: string;
  readonly discord: string;
  readonly twitter: string;
  readonly stackOverflow: string;
  readonly openCollective: string;
  readonly paypal: string;
  /** The discussion thread where companies ask to be listed on the who-uses page. */
  readonly companiesThread: string;
  /** The address readers write to about support, consulting and sponsorship. */
  readonly supportEmail: string;
  /** Default host of the newsletter sign-up endpoint (env `NEWSLETTER_HOST` overrides it). */
  readonly newsletterHost: string;
  /** The third-party ad script loaded at the top of every content page. */
  readonly adsScript: string;
}

export const links = {
  website: 'https://nestjs.com',
  courses: 'https://courses.nestjs.com',
  shop: 'https://shop.nestjs.com',
  enterprise: 'https://enterprise.nestjs.com',
  currentDocs: 'https://docs.nestjs.com',
  examples: 'https://github.com/nestjs/nest/tree/master/sample',
  editBase: 'https://github.com/nestjs/docs.nestjs.com/edit/master/',
  docsIssues: 'https://github.com/nestjs/docs.nestjs.com/issues/new',
  github: 'https://github.com/nestjs/nest',
  discord: 'https://discord.gg/G7Qnnhy',
  twitter: 'https://twitter.com/nestframework',
  stackOverflow: 'https://stackoverflow.com/questions/tagged/nestjs',
  openCollective: 'https://opencollective.com/nest',
  paypal: 'https://paypal.me/kamilmysliwiec',
  companiesThread: 'https://github.com/nestjs/nest/issues/1006',
  supportEmail: 'support@nestjs.com',
  newsletterHost: 'https://newsletter.nestjs.com',
  adsScript: 'https://cdn.carbonads.com/carbon.js?serve=CKYI5KQE&placement=docsnestjscom',
} as const satisfies ExternalLinks;
