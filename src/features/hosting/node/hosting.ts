/**
 * Production hosting, as one typed model: the redirects, caching and security headers the build
 * must be served with, and the files that tell each kind of host about them (`_redirects` and
 * `_headers` for Netlify and Cloudflare Pages, `.htaccess` for Apache, `nginx.conf` for nginx).
 * The pipeline's hosting step (./step.ts) builds the model from the generated HTML after the
 * build and writes the files next to it; scripts/serve-build.mjs applies `_headers` and
 * `_redirects` for the browser tests, so the whole suite runs under the production
 * Content-Security-Policy.
 *
 * - ./csp.ts: the Content-Security-Policy, from the pages' inline code and the build's features;
 * - ./model.ts: the model (redirects, security headers, caching by class of file);
 * - ./render.ts: the four host formats, each written from the model.
 *
 * Node-only: never import this file from client code.
 */
export * from './csp';
export * from './model';
export * from './render';
export type {TypedFile} from '../../pipeline/node/steps';
