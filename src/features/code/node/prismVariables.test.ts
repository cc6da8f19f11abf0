import {themes, type PrismTheme} from 'prism-react-renderer';
import {describe, expect, it} from 'vitest';
import {variableTheme} from './prismVariables';

const light: PrismTheme = {
  plain: {color: '#111111', backgroundColor: '#ffffff'},
  styles: [
    {types: ['comment'], style: {color: '#777777', fontStyle: 'italic'}},
    {types: ['keyword', 'tag'], style: {color: '#0000aa'}},
    // A later entry for the same type wins, as in prism-react-renderer.
    {types: ['tag'], style: {color: '#aa0000'}},
  ],
};
const dark: PrismTheme = {
  plain: {color: '#eeeeee', backgroundColor: '#222222'},
  styles: [
    {types: ['keyword'], style: {color: '#bb99ff'}},
    {types: ['attr-name'], style: {color: '#ffff88'}},
  ],
};

describe('variableTheme', () => {
  it('gives every token type variables instead of colours', () => {
    const {theme} = variableTheme(light, dark);
    expect(theme.plain).toEqual({
      color: 'var(--prism-plain-color)',
      backgroundColor: 'var(--prism-plain-background-color)',
    });
    expect(theme.styles).toEqual([
      {
        types: ['comment'],
        style: {color: 'var(--prism-comment-color)', fontStyle: 'var(--prism-comment-font-style)'},
      },
      {types: ['keyword'], style: {color: 'var(--prism-keyword-color)'}},
      {types: ['tag'], style: {color: 'var(--prism-tag-color)'}},
      {types: ['attr-name'], style: {color: 'var(--prism-attr-name-color)'}},
    ]);
  });

  it('sets the variables per colour mode (`initial` where a theme leaves a type unstyled) and a class for each', () => {
    const {css} = variableTheme(light, dark);
    expect(css).toBe(
      ':root{--prism-plain-color: #111111;--prism-plain-background-color: #ffffff;' +
        '--prism-comment-color: #777777;--prism-comment-font-style: italic;' +
        '--prism-keyword-color: #0000aa;--prism-tag-color: #aa0000;--prism-attr-name-color: initial;}' +
        "[data-theme='dark']{--prism-plain-color: #eeeeee;--prism-plain-background-color: #222222;" +
        '--prism-comment-color: initial;--prism-comment-font-style: initial;' +
        '--prism-keyword-color: #bb99ff;--prism-tag-color: initial;--prism-attr-name-color: #ffff88;}' +
        // One class per variable, for the code lines and tokens (tokenClasses.ts).
        '.prism-plain-color{color:var(--prism-plain-color)}' +
        '.prism-plain-background-color{background-color:var(--prism-plain-background-color)}' +
        '.prism-comment-color{color:var(--prism-comment-color)}' +
        '.prism-comment-font-style{font-style:var(--prism-comment-font-style)}' +
        '.prism-keyword-color{color:var(--prism-keyword-color)}' +
        '.prism-tag-color{color:var(--prism-tag-color)}' +
        '.prism-attr-name-color{color:var(--prism-attr-name-color)}',
    );
  });

  it('handles the site themes', () => {
    const {theme, css} = variableTheme(themes.github, themes.dracula);
    expect(theme.styles.length).toBeGreaterThan(20);
    expect(css).toContain('--prism-function-color: #d73a49;');
    expect(css).toContain('--prism-keyword-font-style: italic;');
  });

  it('refuses what it cannot express', () => {
    expect(() =>
      variableTheme(
        {plain: {}, styles: [{types: ['x'], languages: ['js'], style: {color: 'red'}}]},
        dark,
      ),
    ).toThrow('language-specific');
  });
});
