import {readFileSync, readdirSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {packageDir} from '../bundle/node/packageDir';
import {narrowScreenQuery} from '../promotions/client/AdSlot/loadAd';

/*
 * The widths, in CSS pixels, at which the shell's layout changes: the one list. No code needs
 * them (the desktop columns' adoption, which did, was removed); the stylesheets write them in
 * media queries, and these tests check every such query against this list, and the first one
 * against Docusaurus.
 */

/**
 * Docusaurus' own breakpoint: at this width or less the theme is "mobile" (theme-common's
 * `useWindowSize`, whose constant is not exported, and Infima's navbar, which collapses into the
 * drawer), wider is "desktop". Read from the installed theme-common and Infima below.
 */
const mobileMaxWidth = 996;

/** At this width or less the header's top links are in "More" (custom.css, MoreMenu). */
const topLinksMaxWidth = 1150;

/** At this width or less the header's social icons are in "More" (SocialLinks, MoreMenu). */
const socialIconsMaxWidth = 1250;

const read = (file: string): string => readFileSync(file, 'utf8');
const packageFile = (name: string, file: string): string =>
  read(join(packageDir(process.cwd(), name), file));

/** The `min-width`/`max-width` conditions of a stylesheet's media queries, in pixels. */
function mediaWidths(css: string): {min: number[]; max: number[]} {
  const queries = [...css.matchAll(/@media([^{]+)\{/g)].map(([, query]) => query).join(' ');
  const widths = (kind: string) =>
    [...queries.matchAll(new RegExp(`${kind}-width:\\s*(\\d+)px`, 'g'))].map(([, px]) =>
      Number(px),
    );
  return {min: widths('min'), max: widths('max')};
}

const shell = 'src/features/shell/client';

describe('the breakpoints', () => {
  it("are Docusaurus' own: theme-common's useWindowSize and Infima's navbar", () => {
    expect(packageFile('@docusaurus/theme-common', 'lib/hooks/useWindowSize.js')).toContain(
      `const DesktopBreakpoint = ${mobileMaxWidth};`,
    );
    expect(mediaWidths(packageFile('infima', 'dist/css/default/default.css')).max).toContain(
      mobileMaxWidth,
    );
  });

  it('are the media queries of the header stylesheets', () => {
    expect(mediaWidths(read(`${shell}/custom.css`)).max).toContain(topLinksMaxWidth);
    expect(mediaWidths(read(`${shell}/SocialLinks/styles.module.css`))).toEqual({
      min: [],
      max: [socialIconsMaxWidth],
    });
    // "More" shows where the header hides links and no drawer exists; its top links from 1151 px.
    expect(mediaWidths(read(`${shell}/MoreMenu/styles.module.css`))).toEqual({
      min: [mobileMaxWidth + 1, topLinksMaxWidth + 1],
      max: [socialIconsMaxWidth],
    });
  });

  it('no stylesheet of the site writes a width a few pixels off one', () => {
    const files = readdirSync('src', {recursive: true, encoding: 'utf8'})
      .filter((file) => file.endsWith('.css'))
      .map((file) => join('src', file));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const {min, max} = mediaWidths(read(file));
      for (const breakpoint of [mobileMaxWidth, topLinksMaxWidth, socialIconsMaxWidth]) {
        // An off-by-a-few copy (995, 1151 as a max-width, 1250 as a min-width) is a drift.
        for (const px of max.filter((width) => Math.abs(width - breakpoint) <= 5)) {
          expect(`${file}: max-width ${px}px`).toBe(`${file}: max-width ${breakpoint}px`);
        }
        for (const px of min.filter((width) => Math.abs(width - breakpoint) <= 5)) {
          expect(`${file}: min-width ${px}px`).toBe(`${file}: min-width ${breakpoint + 1}px`);
        }
      }
    }
  });
});

describe('widths written in both code and CSS', () => {
  it("the ad slot's: no ad loads where the slot is hidden", () => {
    const css = read('src/features/promotions/client/AdSlot/styles.module.css');
    expect(css).toContain(`@media ${narrowScreenQuery} {\n  .slot {\n    display: none;`);
  });
});
