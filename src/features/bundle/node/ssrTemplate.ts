/**
 * The HTML page template of the production build (`ssrTemplate` in docusaurus.config.ts).
 *
 * It is Docusaurus' own template (@docusaurus/core/lib/ssg/ssgTemplate.html.js, 3.10) with one
 * change: the two bundles (the runtime and `main`) are not `<script defer>` tags in the head,
 * which the browser fetches at once and runs as soon as the document is parsed, often before
 * the first paint. An inline script at the end of the body requests them once the browser
 * reports the first paint instead (`loadBundles`, ../loadBundles.ts). Every page is rendered in
 * full on the server, so the reader sees the whole article at the first paint; React takes over
 * moments later. With the defer tags the main bundle ran before the first paint of a fast load,
 * which delayed the first text (LCP: PERFORMANCE.md, 2026-11-22).
 *
 * The cost: on a first visit over a slow network the bundles start downloading once the page
 * has painted rather than alongside the style sheet, so the page becomes interactive a little
 * later. The links, the article and the code pairs (their head script and CSS) work without it.
 */

import {loadBundles} from '../loadBundles';

export type {BundleState} from '../loadBundles';

/** Docusaurus' template, the bundles loaded by `loadBundles` (Eta syntax, `it` is the page). */
export const ssrTemplate = `
<!DOCTYPE html>
<html <%~ it.htmlAttributes %>>
  <head>
    <meta charset="UTF-8">
    <meta name="generator" content="Docusaurus v<%= it.version %>">
    <% it.metaAttributes.forEach((metaAttribute) => { %>
      <%~ metaAttribute %>
    <% }); %>
    <%~ it.headTags %>
    <% it.stylesheets.forEach((stylesheet) => { %>
      <link rel="stylesheet" href="<%= it.baseUrl %><%= stylesheet %>" />
    <% }); %>
  </head>
  <body <%~ it.bodyAttributes %>>
    <%~ it.preBodyTags %>
    <div id="__docusaurus"><%~ it.appHtml %></div>
    <script>(${loadBundles.toString()})(<%~ JSON.stringify(it.scripts.map((script) => it.baseUrl + script)) %>, document, window)</script>
    <%~ it.postBodyTags %>
  </body>
</html>
`;
