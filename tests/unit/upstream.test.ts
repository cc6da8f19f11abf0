/**
 * UPSTREAM.md lists every place the site reaches into Docusaurus', React's or another package's
 * internals (issue #38, item 3): its index must name each touch point the code has (found by
 * ./upstreamTouchPoints.ts), and nothing the code no longer has; every entry point under
 * src/theme/ must be in its table of theme components.
 */
import {readFileSync, readdirSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {root, touchPoints, touchPointsOf} from './upstreamTouchPoints';

const upstream = readFileSync(join(root, 'UPSTREAM.md'), 'utf8');

/** The body of the section under `## <title>`, up to the next `## `. */
function section(title: string): string {
  const start = upstream.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`UPSTREAM.md has no section "## ${title}"`);
  const end = upstream.indexOf('\n## ', start + 1);
  return upstream.slice(start, end < 0 ? undefined : end);
}

/** The index's rows as `file -> what`, one line per touch point. */
function indexed(): string[] {
  const rows: string[] = [];
  for (const line of section('Index: every touch point in the code').split('\n')) {
    const cells = line.split(' | ');
    const file = /^\| `([^`]+)`$/.exec(cells[0] ?? '')?.[1];
    if (!file) continue;
    for (const [, what] of (cells[1] ?? '').matchAll(/`([^`]+)`/g)) rows.push(`${file} -> ${what}`);
  }
  return rows.sort();
}

describe('UPSTREAM.md', () => {
  it('indexes every touch point of the code, and none the code no longer has', () => {
    const found = touchPoints()
      .map(({file, what}) => `${file} -> ${what}`)
      .sort();
    // A floor for the rules themselves (they find nothing if they break); the count goes down
    // as touch points are removed (issue #38 aims at 15 or fewer).
    expect(found.length).toBeGreaterThan(10);
    expect(indexed()).toEqual(found);
  });

  it('lists every entry point of src/theme/ among the theme components', () => {
    const table = section('Theme components (src/theme/ entry points)');
    const entries: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(join(root, dir), {withFileTypes: true})) {
        const path = `${dir}/${entry.name}`;
        if (entry.isDirectory()) walk(path);
        else entries.push(path.replace(/^src\/theme\//, '').replace(/(\/index)?\.tsx?$/, ''));
      }
    };
    walk('src/theme');
    expect(entries.length).toBeGreaterThan(20);
    expect(entries.filter((name) => !table.includes(`\`${name}\``))).toEqual([]);
  });
});

describe('the touch point rules', () => {
  it('find imports of internals, generated files and wrapped components', () => {
    const code = [
      "import {useCodeBlockContext} from '@docusaurus/theme-common/internal';",
      "import styles from '@docusaurus/theme-classic/lib/theme/CodeBlock/Content/styles.module.css';",
      "import routes from '@generated/routes';",
      "import Line from '@theme-original/CodeBlock/Line';",
      "import Init from '@theme-init/Foo';",
      "const lazy = () => import('@docusaurus/core/lib/client/prefetch.js');",
      "import {useWindowSize} from '@docusaurus/theme-common';",
      "import {libName} from './lib/helpers';",
    ].join('\n');
    expect(touchPointsOf('a.ts', code).map(({what}) => what)).toEqual([
      '@docusaurus/core/lib/client/prefetch.js',
      '@docusaurus/theme-classic/lib/theme/CodeBlock/Content/styles.module.css',
      '@docusaurus/theme-common/internal',
      '@generated/routes',
      '@theme-init/Foo',
      '@theme-original/CodeBlock/Line',
    ]);
  });

  it('find paths into lib folders, globals, class stems and the copied breakpoint', () => {
    const code = [
      "const dir = join(packageDir(siteDir, '@docusaurus/theme-classic'), 'lib', 'x');",
      "const patch = {file: 'lib/index.module.js'};",
      'window.docusaurus = {...window.docusaurus};',
      "const app = document.getElementById('__docusaurus');",
      '$(\'[class*="admonitionIcon"]\').remove();',
      'export const mobileMaxWidth = 996;',
    ].join('\n');
    expect(touchPointsOf('b.ts', code).map(({what}) => what)).toEqual([
      '#__docusaurus',
      '996 px',
      "[class*='admonitionIcon']",
      'lib/',
      'window.docusaurus',
    ]);
    expect(touchPointsOf('c.css', ".x [class*='buttonGroup'] > button {}")).toEqual([
      {file: 'c.css', what: "[class*='buttonGroup']"},
    ]);
  });

  it('leave comments and plain code alone', () => {
    const code = [
      "// import x from '@docusaurus/theme-common/internal';",
      "/* window.docusaurus, [class*='x'], 996 px */",
      "const url = 'https://example.com/lib/x'; // a URL",
      'const width = 9960;',
    ].join('\n');
    expect(touchPointsOf('d.ts', code)).toEqual([]);
  });
});
