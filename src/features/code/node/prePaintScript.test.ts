import {runInNewContext} from 'node:vm';
import {describe, expect, it} from 'vitest';
import {codeLangStorageKey} from '../codeLang';
import {codeLangScript} from './prePaintScript';

/** Runs the inline script as a page would, with `search` and a storage; returns the attribute. */
function run(search: string, stored: Record<string, string> | 'throws') {
  const attributes: Record<string, string> = {};
  const storage =
    stored === 'throws'
      ? new Proxy(
          {},
          {
            get() {
              throw new Error('SecurityError: storage is disabled');
            },
          },
        )
      : {
          getItem: (key: string) => stored[key] ?? null,
          setItem: (key: string, value: string) => {
            stored[key] = value;
          },
        };
  runInNewContext(codeLangScript, {
    URLSearchParams,
    location: {search},
    localStorage: storage,
    document: {
      documentElement: {
        setAttribute: (name: string, value: string) => (attributes[name] = value),
      },
    },
  });
  return attributes['data-code-lang'];
}

describe('the pre-paint code language script', () => {
  it('takes ?lang= (any spelling) and remembers it', () => {
    const stored: Record<string, string> = {};
    expect(run('?lang=JavaScript', stored)).toBe('js');
    expect(stored[codeLangStorageKey]).toBe('js');
    expect(run('?lang=ts', stored)).toBe('ts');
    expect(stored[codeLangStorageKey]).toBe('ts');
  });

  it('falls back to the remembered choice, then TypeScript', () => {
    expect(run('', {[codeLangStorageKey]: 'js'})).toBe('js');
    expect(run('?lang=python', {[codeLangStorageKey]: 'javascript'})).toBe('js');
    expect(run('', {[codeLangStorageKey]: 'cobol'})).toBe('ts');
    expect(run('', {})).toBe('ts');
  });

  it('still sets the attribute when storage throws', () => {
    expect(run('?lang=js', 'throws')).toBe('js');
    expect(run('', 'throws')).toBe('ts');
  });

  it('is one self-contained statement', () => {
    expect(codeLangScript).toMatch(/^\(function applyInitialCodeLang\(/);
    expect(codeLangScript.endsWith(');')).toBe(true);
  });
});
