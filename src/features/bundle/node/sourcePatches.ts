/**
 * Small rewrites of installed packages' built files, each applied by a bundler loader
 * (./sourcePatchLoader.cjs) to that one file, in the browser and server bundles. A patch names
 * the exact text it replaces; the build fails if the text is not there (an upgrade changed it),
 * rather than silently losing the fix. ./slimBundles.test.ts checks every patch against
 * the installed files; the foundation e2e checks their effect in the browser.
 */
import {join} from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {packageDir} from './packageDir';

export type SourcePatch = {
  /** The package, as the site resolves it (or, with `via`, as that package resolves it). */
  packageName: string;
  via?: string;
  /** The file in the package, as the bundlers resolve it. */
  file: string;
  /** Exact pieces of the file and what replaces each, applied in order. */
  edits: readonly Edit[];
};

export type Edit = {original: string; replacement: string};

/** The end of react-helmet-async's `emitChange` and its `init`, up to `render` (1.3.0, minified). */
const helmetClientPath =
  'q.canUseDOM?(e=o,_&&cancelAnimationFrame(_),e.defer?_=requestAnimationFrame(function(){K(e,function(){_=null})}):(K(e),_=null)):k&&(i=k(o)),n(i)},r.init=function(){this.rendered||(this.rendered=!0,this.props.context.helmetInstances.add(this),this.emitChange())},';

export const sourcePatches = {
  /**
   * The first `String.prototype.localeCompare` call of a page sets up the ICU collator, inside
   * the task that hydrates the page. The only call while a
   * page loads was theme-common's `useShallowMemoObject`, which sorts an object's entries by key
   * with it, on every render: every code block runs it (`useCodeWordWrap` ->
   * `useMutationObserver`), and so does the mobile menu (`NavbarSecondaryMenuFiller`). The order
   * only has to be stable from one render to the next, so comparing keys by code unit does the
   * same job without the collator (figures: PERFORMANCE.md, 2026-11-25).
   */
  shallowMemoObject: {
    packageName: '@docusaurus/theme-common',
    file: 'lib/utils/reactUtils.js',
    edits: [
      {
        original: 'deps.sort((a, b) => a[0].localeCompare(b[0]));',
        replacement: 'deps.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));',
      },
    ],
  },
  /**
   * react-helmet-async registers each `<Head>` while it renders, and writes the head in the next
   * animation frame. Docusaurus hydrates in a transition, which React renders in 5 ms slices with
   * frames in between: the first frames wrote the head from the `<Head>`s rendered so far. The
   * SSR tags of those not yet rendered were removed (description, canonical, the font preload,
   * structured data), the tab's title went from the page's to the site's, and everything came
   * back a frame or two later: three rewrites of the head per load.
   *
   * In the browser the `<Head>`s now register when React commits them (`componentDidMount`), so
   * the first write sees the whole committed page and finds the server's tags already right. The
   * server still registers them while rendering, as it must. Registering in the commit alone
   * made the hydration task longer: every `<Head>` merged the props of all the others
   * (`reducePropsToState`), 20-odd times over, inside React's commit, which does not yield. So in
   * the browser a change only asks for a frame, and the props are merged once, in that frame
   * (figures: PERFORMANCE.md, 2026-11-25).
   */
  helmetOnMount: {
    packageName: 'react-helmet-async',
    via: '@docusaurus/core',
    file: 'lib/index.module.js',
    edits: [
      {
        original: 'r.emitChange=function(){var t,e,r=this.props.context',
        replacement: `r.emitChange=function(){var s=this;if(!q.canUseDOM)return s.emitChangeNow();_&&cancelAnimationFrame(_),_=requestAnimationFrame(function(){_=null,s.emitChangeNow()})},r.emitChangeNow=function(){var t,e,r=this.props.context`,
      },
      {
        // Led by the dispatcher's own client path, which shows that `q` is the Provider and `_`
        // the pending frame, as the edit above assumes.
        original: `${helmetClientPath}r.render=function(){return this.init(),null}`,
        replacement: `${helmetClientPath}r.componentDidMount=function(){this.init()},r.render=function(){return q.canUseDOM||this.init(),null}`,
      },
    ],
  },
} satisfies Record<string, SourcePatch>;

/** The absolute path of the file a patch rewrites. */
export function patchedFile(siteDir: string, patch: SourcePatch): string {
  const from = patch.via ? packageDir(siteDir, patch.via) : siteDir;
  return join(packageDir(from, patch.packageName), patch.file);
}

/** The loader, as the bundlers are given it. */
export function sourcePatchLoader(siteDir: string): string {
  return join(siteDir, 'src', 'features', 'bundle', 'node', 'sourcePatchLoader.cjs');
}

/** `without`: names of patches to leave out (a measurement build, ./without.ts). */
export default function sourcePatchesPlugin(
  context: LoadContext,
  without: ReadonlySet<string> = new Set(),
): Plugin {
  const applied = Object.entries(sourcePatches).filter(([name]) => !without.has(name));
  const rules = applied.map(([name, patch]: [string, SourcePatch]) => {
    const file = patchedFile(context.siteDir, patch);
    return {
      test: (resource: string) => resource === file,
      use: [
        {
          loader: sourcePatchLoader(context.siteDir),
          options: {name, edits: patch.edits},
        },
      ],
    };
  });
  return {
    name: 'nest-source-patches',
    configureWebpack() {
      return {module: {rules}};
    },
  };
}
