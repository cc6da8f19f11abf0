/**
 * Source maps for the browser bundles, only when `BUNDLE_REPORT=1` is set: they feed
 * `npm run bundle-report` (scripts/bundle-report.mjs), which tells where the bytes of the
 * bundles go. Regular builds ship no maps.
 */
import type {Plugin} from '@docusaurus/types';

export default function sourceMaps(): Plugin {
  return {
    name: 'nest-source-maps',
    configureWebpack(_config, isServer) {
      return !isServer && process.env.BUNDLE_REPORT === '1' ? {devtool: 'source-map'} : {};
    },
  };
}
