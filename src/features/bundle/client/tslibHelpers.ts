/**
 * The TypeScript helpers `@docusaurus/utils-common` uses, and nothing else: what its
 * `require("tslib")` gets in the browser bundle (src/features/bundle/node/tslibHelpers.ts).
 */
export {__importDefault} from 'tslib';
