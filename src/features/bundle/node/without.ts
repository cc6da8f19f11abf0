/**
 * `NEST_WITHOUT=name,name npm run build`: a build without some of the places where the site
 * reaches into Docusaurus' or a dependency's internals (UPSTREAM.md), to measure what each one
 * still gains (`npm run bench -- --compare`, `npm run cpu-report -- --baseline`). Production
 * builds set nothing and get all of them.
 */

/** What can be left out, and where each lives. */
export const removablePatches = {
  slimDocsVersion:
    'src/features/bundle/node/slimDocsVersion.ts (no page descriptions in the browser)',
  slimSiteConfig:
    'src/features/bundle/node/slimSiteConfig.ts (no server-only config in the browser)',
  tslibHelpers: 'src/features/bundle/node/tslibHelpers.ts (one tslib helper instead of all)',
  ssrTemplate: 'src/features/bundle/node/ssrTemplate.ts (bundles requested after the first paint)',
  compileHints: 'src/features/bundle/node/compileHints.ts (V8 compiles the main bundle eagerly)',
} as const;

export type RemovablePatch = keyof typeof removablePatches;

/** The patches `value` names (comma-separated); throws on a name that is not one. */
export function patchesWithout(value: string | undefined): ReadonlySet<RemovablePatch> {
  const names = (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !(name in removablePatches));
  if (unknown.length > 0) {
    throw new Error(
      `NEST_WITHOUT: unknown patch ${unknown.map((name) => `"${name}"`).join(', ')}; ` +
        `known: ${Object.keys(removablePatches).join(', ')}`,
    );
  }
  return new Set(names as RemovablePatch[]);
}
