/**
 * Asks for the brand fonts' files from the page's head, alongside the style sheet, instead of
 * once the first layout finds text that needs them. Each URL comes from the same module as the
 * style sheet's `@font-face` (src/features/shell/client/custom.css), so it is the same hashed file and one download.
 *
 * Why: with `font-display: swap`, a face that arrives after the first layout is swapped in over
 * its metric-matched fallback. That moves no line box, but it can wrap a paragraph's words
 * differently (a small layout shift), and every arrival makes Chromium lay the whole page out
 * again. Preloaded, the files usually land with the style sheet and the first paint is already in
 * the brand fonts (figures: PERFORMANCE.md, 2026-11-25).
 *
 * `SansFontPreload` (every page: the text, headings and menu use the three Source Sans 3 weights)
 * is rendered by src/features/shell/client/Root.tsx; `MonospaceFontPreload` only on pages with
 * code, where src/features/code/node/remarkMonospaceFontPreload.ts places it: a preload nobody uses costs a slow link 18 KiB
 * and Chromium warns about it. `crossOrigin` matches the font fetch's CORS mode, or Chromium would
 * download each file twice.
 */
import React, {type ReactNode} from 'react';
import Head from '@docusaurus/Head';
import inconsolata400 from '@fontsource/inconsolata/files/inconsolata-latin-400-normal.woff2';
import sourceSans400 from '@fontsource/source-sans-3/files/source-sans-3-latin-400-normal.woff2';
import sourceSans600 from '@fontsource/source-sans-3/files/source-sans-3-latin-600-normal.woff2';
import sourceSans700 from '@fontsource/source-sans-3/files/source-sans-3-latin-700-normal.woff2';

function Preloads({files}: {files: readonly string[]}): ReactNode {
  return (
    <Head>
      {files.map((href) => (
        <link
          key={href}
          rel="preload"
          href={href}
          as="font"
          type="font/woff2"
          crossOrigin="anonymous"
        />
      ))}
    </Head>
  );
}

const sans = [sourceSans400, sourceSans600, sourceSans700];
const monospace = [inconsolata400];

export function SansFontPreload(): ReactNode {
  return <Preloads files={sans} />;
}

export function MonospaceFontPreload(): ReactNode {
  return <Preloads files={monospace} />;
}
