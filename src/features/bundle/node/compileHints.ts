/**
 * V8's explicit compile hint for the bundles every first load runs: `//# allFunctionsCalledOnLoad`
 * as the first line of `main` (React, React DOM, Docusaurus' client and the theme's shell) and
 * of `runtime~main`.
 *
 * V8 compiles a function when it is first called, on the main thread. A first load calls most
 * of `main`'s functions while the page hydrates, so that compiling was a large share of React's
 * time there: with the CPU slowed 4x, V8.CompileCode took 270-350 ms of the main thread on
 * /controllers (a Chromium trace). With the hint, V8 compiles the whole file eagerly while the
 * script streams in, off the main thread (Chrome 136 and later; other engines ignore the line):
 * 104-121 ms left, and React DOM's time in `npm run cpu-report` fell from 263 to 160 ms
 * (medians of 7 interleaved loads; PERFORMANCE.md). The route chunks get no hint: most of a
 * page's own chunk is the article, which a first load does not render (src/features/static-article).
 *
 * The line is added after minification (which would drop a comment) and before the source
 * maps are written, so they stay right. tests/e2e/foundation.spec.ts checks the served files.
 */
import type {Plugin} from '@docusaurus/types';

/** The hint, as V8 reads it: a line of its own, first in the file. */
export const compileHint = '//# allFunctionsCalledOnLoad';

/** The bundles that get it (the files' names in the build, under assets/js). */
export const hintedBundles = /^assets\/js\/(main|runtime~main)\.[0-9a-f]+\.js$/;

export default function compileHints(): Plugin {
  return {
    name: 'nest-compile-hints',
    configureWebpack(config, isServer, utils) {
      if (isServer || config.mode !== 'production') return {};
      const {BannerPlugin, Compilation} = utils.currentBundler.instance;
      return {
        plugins: [
          new BannerPlugin({
            banner: compileHint,
            raw: true,
            include: hintedBundles,
            // After the minifier (it drops comments), before the source maps.
            stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE + 1,
          }),
        ],
      };
    },
  };
}
