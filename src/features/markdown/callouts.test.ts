import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {calloutKinds} from './callouts';

const kinds = Object.keys(calloutKinds);

/** The rules of a stylesheet without nesting: each selector list with its declarations. */
function rules(css: string): {selectors: string[]; body: string}[] {
  const plain = css.replace(/\/\*[\s\S]*?\*\//g, '');
  return [...plain.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map(([, selectors, body]) => ({
    selectors: selectors.split(',').map((selector) => selector.trim()),
    body,
  }));
}

describe('the callout kinds (./callouts.ts), everywhere they are written', () => {
  it('the docset colours each kind, and no other', () => {
    const css = readFileSync('src/features/docset/assets/docset.css', 'utf8');
    const styled = [...css.matchAll(/\.theme-admonition-([\w-]+)/g)].map(([, kind]) => kind);
    // The base rule draws `info`; each other kind has its own rule.
    expect([...new Set(['info', ...styled])].sort()).toEqual([...kinds].sort());
    for (const kind of kinds) {
      expect(css, `--${kind} defined`).toMatch(new RegExp(`--${kind}:`));
      const selector = kind === 'info' ? '.theme-admonition' : `.theme-admonition-${kind}`;
      const rule = rules(css).find((candidate) => candidate.selectors.includes(selector));
      expect(rule?.body, `${selector} draws var(--${kind})`).toContain(`var(--${kind})`);
    }
  });

  it('CONTRIBUTING.md shows and describes the kinds', () => {
    const guide = readFileSync('CONTRIBUTING.md', 'utf8');
    const section = guide.slice(
      guide.indexOf('## Callouts'),
      guide.indexOf('\n## ', guide.indexOf('## Callouts') + 1),
    );
    const shown = [...section.matchAll(/^:::([a-z]+)/gm)].map(([, kind]) => kind);
    expect([...new Set(shown)].sort()).toEqual([...kinds].sort());
    // "Use `info` for background, `warning` for ...": each kind says what it is for.
    for (const kind of kinds) expect(section).toMatch(new RegExp(`\`${kind}\` for `));
  });
});
