// @ts-check
/**
 * Where the API reference lives: its pages' route prefix (`/api/common`) and the folder of
 * `docs/` the build writes them into (`docs/api/`, git-ignored). The one place it is written:
 * ./packages.ts builds the pages' routes from it, the generator, the guide scan, the version menu
 * and the browser's full-load rule read it, and so do the checks that skip generated pages
 * (../markdown/node/files.mjs: plain ESM, so that plain Node loads it). ./packages.test.ts checks
 * `.gitignore`.
 */
export const apiRoute = 'api';
