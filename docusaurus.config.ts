import type {Config, LoadContext} from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';
import {themes as prismThemes} from 'prism-react-renderer';
import {links} from './src/data/links';
import {noindexMarker} from './src/data/redirects';
import {withContrast} from './src/node/prismContrast';
import {variableTheme} from './src/node/prismVariables';
import {emittedRedirects} from './src/node/redirects';
import {searchConfig} from './src/node/search';
import {ssrTemplate} from './src/node/ssrTemplate';
import {patchesWithout} from './src/node/without';
import deferLibraries from './src/plugins/deferLibraries';
import fontFallbacks from './src/plugins/fontFallbacks';
import hostingPlugin from './src/plugins/hosting';
import markdownTwinsPlugin from './src/plugins/markdownTwins';
import redirectsPlugin from './src/plugins/redirects';
import requireDescriptions from './src/plugins/requireDescriptions';
import slimDocsVersion from './src/plugins/slimDocsVersion';
import slimSiteConfig from './src/plugins/slimSiteConfig';
import tslibHelpers from './src/plugins/tslibHelpers';
import prefetchOnce from './src/plugins/prefetchOnce';
import sourcePatches from './src/plugins/sourcePatches';
import sourceMaps from './src/plugins/sourceMaps';
import offlinePlugin from './src/plugins/offline';
import staticArticle from './src/features/static-article/plugin';
import reactOnlyElements from './src/features/static-article/node/reactOnlyElements';
import {pwaOptions} from './src/pwa/options';
import codePair from './src/remark/codePair';
import focusableTables from './src/remark/focusableTables';
import headingOrder from './src/remark/headingOrder';
import monospaceFontPreload from './src/remark/monospaceFontPreload';

const siteTitle = 'NestJS - A progressive Node.js framework';
// Internals patches left out for a measurement (src/node/without.ts; empty in normal builds).
const without = patchesWithout(process.env.NEST_WITHOUT);
// Pagefind by default, Algolia DocSearch when its keys are set (see src/node/search.ts).
const search = searchConfig(process.env);

/** Light and dark code colours behind one variable-based Prism theme. */
const prism = variableTheme(withContrast(prismThemes.github), withContrast(prismThemes.dracula));

/** The Markdown twins and llms.txt (src/plugins/markdownTwins.ts), created with the site. */
let markdownTwins: ReturnType<typeof markdownTwinsPlugin> | undefined;

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
  // The bundles load after the first paint (src/node/ssrTemplate.ts), so it ran on every load
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

  clientModules: ['./src/clientModules/pageFade.ts', './src/clientModules/tocFollow.ts'],

  headTags: [
    {
      // Code colours for both modes (src/node/prismVariables.ts): a few hundred bytes, inline.
      tagName: 'style',
      attributes: {},
      innerHTML: prism.css,
    },
    {
      // Code pairs: pick TypeScript or JavaScript before first paint, from `?lang=` or the
      // remembered choice, so the CSS shows the right half at once (see src/components/CodePair).
      tagName: 'script',
      attributes: {},
      innerHTML: [
        '(function(){var k="nest-docs.code-lang",l="ts";',
        'function p(v){return /^(js|javascript)$/i.test(v||"")?"js":/^(ts|typescript)$/i.test(v||"")?"ts":null}',
        'try{var q=p(new URLSearchParams(location.search).get("lang"));',
        'if(q){l=q;try{localStorage.setItem(k,q)}catch(e){}}',
        'else{l=p(localStorage.getItem(k))||l}}catch(e){}',
        'document.documentElement.setAttribute("data-code-lang",l)})();',
      ].join(''),
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
          admonitions: {
            keywords: ['hint'],
            extendDefaults: true,
          },
          // Marked fences (@@filename / @@switch) become <CodePair> elements.
          // Elements that need React fail the build: articles are static on a first load.
          remarkPlugins: [
            codePair,
            focusableTables,
            headingOrder,
            monospaceFontPreload,
            reactOnlyElements,
          ],
        },
        blog: false,
        theme: {
          customCss: './src/css/custom.css',
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
    ...(without.has('prefetchOnce') ? [] : [prefetchOnce]),
    (context: LoadContext) => sourcePatches(context, without),
    sourceMaps,
    // First loads adopt the server's article without hydrating it (src/features/static-article).
    staticArticle,
    (context: LoadContext) =>
      redirectsPlugin(context, {redirects: emittedRedirects(), noindexMarker}),
    // /controllers.md (every page's Markdown), /llms.txt, /llms-full.txt (see the file).
    (context: LoadContext) => (markdownTwins = markdownTwinsPlugin(context)),
    // _redirects, _headers, .htaccess and nginx.conf next to the build (see the file).
    (context: LoadContext) =>
      hostingPlugin(context, {
        typedFiles: () => markdownTwins?.files() ?? [],
        redirects: emittedRedirects(),
        enterpriseUrl: links.enterprise,
        // Netlify sets NETLIFY=true in its builds: only there are the redirects forced.
        forceRedirects: process.env.NETLIFY === 'true',
      }),
    ...search.plugins,
    // Offline reading: manifest, service worker, "Save all docs" list (README "Offline reading").
    ['@docusaurus/plugin-pwa', pwaOptions],
    () => offlinePlugin({pagefind: !search.algolia}),
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
      // Rendered by src/theme/Footer/Copyright (year range computed in the browser).
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
