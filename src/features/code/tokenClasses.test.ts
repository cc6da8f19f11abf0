import {themes} from 'prism-react-renderer';
import {describe, expect, it} from 'vitest';
import {variableClass, withVariableClasses} from './tokenClasses';
import {variableTheme} from './node/prismVariables';

describe('withVariableClasses', () => {
  it('turns variable-valued declarations into classes of the variable names', () => {
    expect(
      withVariableClasses({
        className: 'token keyword',
        style: {color: 'var(--prism-keyword-color)', fontStyle: 'var(--prism-keyword-font-style)'},
        children: 'import',
      }),
    ).toEqual({
      className: 'token keyword prism-keyword-color prism-keyword-font-style',
      style: undefined,
      children: 'import',
    });
  });

  it('keeps other declarations inline', () => {
    expect(
      withVariableClasses({
        className: 'token plain',
        style: {display: 'inline-block', color: 'var(--prism-plain-color)'},
      }),
    ).toEqual({className: 'token plain prism-plain-color', style: {display: 'inline-block'}});
  });

  it('leaves props without a style alone', () => {
    const props = {className: 'token plain', children: ' '};
    expect(withVariableClasses(props)).toBe(props);
  });

  it('every variable the site theme writes has a rule applying it', () => {
    const {theme, css} = variableTheme(themes.github, themes.dracula);
    const styles = [theme.plain, ...theme.styles.map((entry) => entry.style)];
    let rules = 0;
    for (const style of styles) {
      for (const [property, value] of Object.entries(style)) {
        const variable = /^var\((--[^)]+)\)$/.exec(String(value))?.[1];
        expect(variable, `${property}: ${String(value)}`).toBeDefined();
        const cssProperty = property.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
        expect(css).toContain(`.${variableClass(variable!)}{${cssProperty}:var(${variable})}`);
        rules += 1;
      }
    }
    expect(rules).toBeGreaterThan(20);
  });
});
