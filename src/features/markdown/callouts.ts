/**
 * The callout kinds a page may use (`:::info`, `:::warning`, `:::hint`) and the word that heads
 * each. The one list of them, read by
 *
 * - docusaurus.config.ts: the docs plugin's `admonitions.keywords`, without Docusaurus' defaults,
 *   so no other `:::name` is a callout;
 * - ./client/AdmonitionTypes.tsx: each kind rendered and announced to screen readers by its word;
 * - src/features/markdown-twins/node/markdownTwins.ts: each callout a quote headed by its word
 *   (any other `:::name` fails the page's conversion);
 * - src/features/docset/assets/docset.css: a colour per kind (./callouts.test.ts checks the
 *   stylesheet and CONTRIBUTING.md against this list).
 *
 * Pure data: imported by the config, the browser and the build.
 */
export const calloutKinds = {
  info: 'Info',
  warning: 'Warning',
  hint: 'Hint',
} as const satisfies Readonly<Record<string, string>>;

export type CalloutKind = keyof typeof calloutKinds;

/** Whether `name` (a container directive's, `:::name`) is a callout kind. */
export function isCalloutKind(name: string): name is CalloutKind {
  return Object.hasOwn(calloutKinds, name);
}
