import type {Config, LoadContext} from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';
import {themes as prismThemes} from 'prism-react-renderer';
import {apiReference} from './src/features/api-reference/plugin';
import {links} from './src/data/links';
import {noindexMarker} from './src/features/redirects/redirects';
import {calloutKinds} from './src/features/markdown/callouts';
import {withContrast} from './src/features/code/node/prismContrast';
import {variableTheme} from './src/features/code/node/prismVariables';
import {codeLangScript} from './src/features/code/node/prePaintScript';
import {emittedRedirects} from './src/features/redirects/node/emitted';
import {searchConfig} from './src/features/search/node/searchConfig';
import {ssrTemplate} from './src/features/bundle/node/ssrTemplate';
import {patchesWithout} from './src/features/bundle/node/without';
import deferLibraries from './src/features/code/plugin';
import fontFallbacks from './src/features/fonts/plugin';
import markdownTwinsPlugin from './src/features/markdown-twins/plugin';
import pipelinePlugin from './src/features/pipeline/plugin';
import requireDescriptions from './src/features/markdown/plugin';
import slimDocsVersion from './src/features/bundle/node/slimDocsVersion';
import slimSiteConfig from './src/features/bundle/node/slimSiteConfig';
import tslibHelpers from './src/features/bundle/node/tslibHelpers';
import sourceMaps from './src/features/bundle/node/sourceMaps';
import compileHints from './src/features/bundle/node/compileHints';
import staticArticle from './src/features/static-article/plugin';
import {pwaOptions} from './src/features/offline/node/pwaOptions';
import codePair from './src/features/code/node/remarkCodePair';
import focusableTables from './src/features/markdown/node/remarkFocusableTables';
import headingOrder from './src/features/markdown/node/remarkHeadingOrder';
import monospaceFontPreload from './src/features/code/node/remarkMonospaceFontPreload';

// Loading this file runs nothing: what reads or writes files, installs or spawns happens in the
// plugins' functions and hooks, when Docusaurus calls them (docusaurusConfig.test.ts checks).

const siteTitle = 'NestJS - A progressive Node.js framework';
// The API reference: its plugin writes docs/api/*.md from the packages' declarations when
// Docusaurus loads the plugins, before the docs are read (src/features/api-reference).
const api = apiReference(__dirname);
// Internals patches left out for a measurement (src/features/bundle/node/without.ts; empty in
// normal builds).
const without = patchesWithout(process.env.NEST_WITHOUT);
// Pagefind by default, Algolia DocSearch when its keys are set (see src/features/search/node/searchConfig.ts).
const search = searchConfig(process.env);

/** Light and dark code colours behind one variable-based Prism theme. */
const prism = variableTheme(withContrast(prismThemes.github), withContrast(prismThemes.dracula));

const config = {
  title: siteTitle,
  tagline:
    'A progressive Node.js framework for building efficient, scalable server-side applications.',
  favicon: 'img/favicon.svg',
  url: 'https://docs.nestjs.com',
  baseUrl: '/',
  trailingSlash: false,
  // Docusaurus' "did not load properly" banner: an inline script on `/` that, at
  // DOMContentLoaded, injects markup with `style` attributes unless `window.docusaurus` exists.
  // The bundles load after the first paint (src/features/bundle/node/ssrTemplate.ts), so it ran on every load
  // (hidden by the theme's CSS), and the Content-Security-Policy blocks those styles.
  baseUrlIssueBanner: false,

  future: {
    v4: true,
  },

  onBrokenLinks: 'throw',
  onBrokenAnchors: 'throw',
  onDuplicateRoutes: 'throw',
  markdown: {
    hooks: {
      onBrokenMarkdownLinks: 'throw',
      onBrokenMarkdownImages: 'throw',
    },
  },

  i18n: {
    defaultLocale: 'en',
    locales: ['en'],
  },

  // Docusaurus' page template, with the bundles requested after the first paint (see the file).
  ...(!without.has('ssrTemplate') && {ssrTemplate}),

  clientModules: [
    './src/features/shell/client/pageFade.ts',
    './src/features/shell/client/tocFollow.ts',
    // Printing from dark mode prints in light colours (src/features/print).
    './src/features/print/client/printColours.ts',
  ],

  headTags: [
    {
      // Code colours for both modes (src/features/code/node/prismVariables.ts): a few hundred bytes, inline.
      tagName: 'style',
      attributes: {},
      innerHTML: prism.css,
    },
    {
      // Code pairs: pick TypeScript or JavaScript before first paint, from `?lang=` or the
      // remembered choice, so the CSS shows the right half at once (src/features/code).
      tagName: 'script',
      attributes: {},
      innerHTML: codeLangScript,
    },
  ],

  customFields: {
    /** Where `/consulting` sends the reader. */
    enterpriseUrl: links.enterprise,
    /** The year of the build: the footer's first paint, before the browser's own year. */
    buildYear: new Date().getFullYear(),
    /** Newsletter sign-up endpoint: `{host}/Stage/newsletter?token={token}` (env overrides). */
    newsletterHost: (process.env.NEWSLETTER_HOST || links.newsletterHost).replace(/\/+$/, ''),
    newsletterToken: process.env.NEWSLETTER_TOKEN ?? '',
    /** The ad script at the top of content pages; `ADS=off` at build time leaves it out. */
    adsEnabled: process.env.ADS !== 'off',
  },

  presets: [
    [
      'classic',
      {
        docs: {
          routeBasePath: '/',
          sidebarPath: './sidebars.ts',
          editUrl: links.editBase,
          showLastUpdateTime: false,
          // The callout kinds, and no others (src/features/markdown/callouts.ts).
          admonitions: {
            keywords: Object.keys(calloutKinds),
            extendDefaults: false,
          },
          // Marked fences (@@filename / @@switch) become <CodePair> elements.
          // Identifiers imported from the reference's packages link to their entries.
          remarkPlugins: [
            codePair,
            api.remarkPlugin,
            focusableTables,
            headingOrder,
            monospaceFontPreload,
          ],
        },
        blog: false,
        theme: {
          // The shell's styles, and the print stylesheet of docs pages (src/features/print).
          customCss: ['./src/features/shell/client/custom.css', './src/features/print/print.css'],
        },
        sitemap: {
          ignorePatterns: ['/consulting', '/search', '/offline'],
        },
      } satisfies Preset.Options,
    ],
  ],

  plugins: [
    requireDescriptions,
    // Metric-matched local fallbacks of the brand fonts, measured from the font files.
    fontFallbacks,
    deferLibraries,
    ...(without.has('slimDocsVersion') ? [] : [slimDocsVersion]),
    ...(without.has('slimSiteConfig') ? [] : [slimSiteConfig]),
    ...(without.has('tslibHelpers') ? [] : [tslibHelpers]),
    // V8 compiles the bundles every first load runs while they stream in (compileHints.ts).
    ...(without.has('compileHints') ? [] : [compileHints]),
    sourceMaps,
    // First loads adopt the server's article without hydrating it (src/features/static-article).
    staticArticle,
    // After the build: the features' steps, in the order of src/features/pipeline/plugin.ts.
    (context: LoadContext) => {
      // The legacy URLs whose new page exists: fallback pages and host rules (src/features/redirects).
      const redirects = emittedRedirects();
      return pipelinePlugin(context, {
        redirects: {redirects, noindexMarker},
        hosting: {
          redirects,
          enterpriseUrl: links.enterprise,
          // Netlify sets NETLIFY=true in its builds: only there are the redirects forced.
          forceRedirects: process.env.NETLIFY === 'true',
        },
      });
    },
    // `docusaurus start` serves /controllers.md and llms.txt too (the build writes them above).
    markdownTwinsPlugin,
    // API pages load in full rather than rendering in the browser (src/features/api-reference).
    api.plugin,
    ...search.plugins,
    // Offline reading: manifest, service worker (README "Offline reading").
    ['@docusaurus/plugin-pwa', pwaOptions],
  ],

  themeConfig: {
    ...(search.algolia && {algolia: search.algolia}),
    colorMode: {
      defaultMode: 'light',
      respectPrefersColorScheme: true,
    },
    docs: {
      sidebar: {
        hideable: false,
        autoCollapseCategories: false,
      },
    },
    navbar: {
      title: '',
      logo: {
        alt: 'NestJS',
        src: 'img/logo.svg',
        href: '/',
      },
      items: [
        {type: 'custom-sidebarToggle', position: 'left'},
        // v8, Latest (v11), the archived majors (src/features/versions).
        {type: 'custom-versionMenu', position: 'left'},
        {type: 'search', position: 'left'},
        {type: 'custom-socialLinks', position: 'right'},
        {href: links.website, label: 'Our website', position: 'right'},
        {href: links.courses, label: 'Courses', position: 'right'},
        {to: '/support', label: 'Sponsor us', position: 'right'},
        {href: links.enterprise, label: 'Enterprise support', position: 'right'},
        {type: 'custom-moreMenu', position: 'right'},
      ],
    },
    footer: {
      style: 'light',
      // Rendered by src/features/shell/client/FooterCopyright (year range computed in the browser).
      copyright: 'MIT',
    },
    tableOfContents: {
      minHeadingLevel: 2,
      maxHeadingLevel: 3,
    },
    prism: {
      theme: prism.theme,
      darkTheme: prism.theme,
      additionalLanguages: ['bash', 'json', 'graphql', 'protobuf', 'docker', 'yaml'],
    },
  } satisfies Preset.ThemeConfig,
} satisfies Config;

export default config;
