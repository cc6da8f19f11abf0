/**
 * The widths, in CSS pixels, at which the shell's layout changes: the one list. Code imports
 * them; the stylesheets that need them write them in media queries, and ./breakpoints.test.ts
 * checks every such query against this list (and the first one against Docusaurus).
 */

/**
 * Docusaurus' own breakpoint: at this width or less the theme is "mobile" (theme-common's
 * `useWindowSize`, whose constant is not exported, and Infima's navbar, which collapses into the
 * drawer), wider is "desktop". Copied, so the test reads the installed theme-common and Infima.
 */
export const mobileMaxWidth = 996;

/** At this width or less the header's top links are in "More" (custom.css, MoreMenu). */
export const topLinksMaxWidth = 1150;

/** At this width or less the header's social icons are in "More" (SocialLinks, MoreMenu). */
export const socialIconsMaxWidth = 1250;
