/**
 * Asks for the body text's font file from the page's head, alongside the style sheet, instead of
 * once the first layout finds text that needs it. The face is the one src/css/custom.css declares
 * for Source Sans 3 400 (the same module, so the same hashed URL and one download); it then
 * usually arrives before the first paint, and the text is painted in the brand font from the
 * start rather than swapped from its fallback a moment later: a swap over the metric-matched
 * fallback moves no line box, but it can still wrap a paragraph's words differently.
 *
 * Only this face: the body text is the only one whose swap was seen to move anything (one line
 * of the first paragraph at 412 px: CLS 0.006-0.009 on the bench pages, 0 with this preload over
 * 9 interleaved Lighthouse runs); headings, the menu and code keep `font-display: swap`.
 * `crossOrigin` matches the font fetch's CORS mode, or Chromium would download the file twice.
 */
import React, {type ReactNode} from 'react';
import Head from '@docusaurus/Head';
import sourceSans400 from '@fontsource/source-sans-3/files/source-sans-3-latin-400-normal.woff2';

export default function FontPreload(): ReactNode {
  return (
    <Head>
      <link
        rel="preload"
        href={sourceSans400}
        as="font"
        type="font/woff2"
        crossOrigin="anonymous"
      />
    </Head>
  );
}
