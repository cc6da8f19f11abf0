import {describe, expect, it} from 'vitest';
import {parseCodeLang} from './codeLang';

describe('parseCodeLang', () => {
  it('reads the short and long names in any case', () => {
    expect(parseCodeLang('ts')).toBe('ts');
    expect(parseCodeLang('TypeScript')).toBe('ts');
    expect(parseCodeLang('JS')).toBe('js');
    expect(parseCodeLang('javascript')).toBe('js');
  });

  it('is null for anything else', () => {
    expect(parseCodeLang('python')).toBeNull();
    expect(parseCodeLang('')).toBeNull();
    expect(parseCodeLang(null)).toBeNull();
    expect(parseCodeLang(undefined)).toBeNull();
  });
});
