import {execFileSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {splitPath, tar, tarGz} from './tar';

describe('tar', () => {
  it('writes an archive the system tar lists and extracts, folders first', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tar-test-'));
    try {
      const long = `${'deep/'.repeat(25)}file-with-a-long-name.html`;
      const archive = tarGz([
        {path: 'A.docset/Contents/Info.plist', data: Buffer.from('<plist/>')},
        {path: 'A.docset/b\u00e9.txt', data: Buffer.alloc(1025, 'x')},
        {path: `A.docset/${long}`, data: Buffer.from('long')},
        {path: 'A.docset/empty', data: Buffer.alloc(0)},
      ]);
      writeFileSync(join(dir, 'a.tgz'), archive);
      const listing = execFileSync('tar', ['-tzf', join(dir, 'a.tgz')], {encoding: 'utf8'})
        .trim()
        .split('\n');
      expect(listing.slice(0, 4)).toEqual([
        'A.docset/',
        'A.docset/Contents/',
        'A.docset/Contents/Info.plist',
        'A.docset/b\u00e9.txt',
      ]);
      expect(listing).toContain(`A.docset/${long}`);
      execFileSync('tar', ['-xzf', join(dir, 'a.tgz'), '-C', dir]);
      expect(readFileSync(join(dir, 'A.docset', 'Contents', 'Info.plist'), 'utf8')).toBe(
        '<plist/>',
      );
      expect(readFileSync(join(dir, 'A.docset', 'b\u00e9.txt')).length).toBe(1025);
      expect(readFileSync(join(dir, 'A.docset', long), 'utf8')).toBe('long');
      expect(readFileSync(join(dir, 'A.docset', 'empty')).length).toBe(0);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });

  it('is deterministic and block-aligned', () => {
    const entries = [{path: 'x/y.txt', data: Buffer.from('hello')}];
    expect(tarGz(entries).equals(tarGz(entries))).toBe(true);
    // A folder header, a file header, one data block, two end blocks.
    expect(tar(entries).length).toBe(512 * 5);
  });

  it('refuses paths that would leave the archive, duplicates and paths too long', () => {
    expect(() => tar([{path: '/etc/passwd', data: Buffer.alloc(0)}])).toThrow(
      'Not a relative path',
    );
    expect(() => tar([{path: 'a/../../b', data: Buffer.alloc(0)}])).toThrow('Not a relative path');
    const twice = [
      {path: 'a.txt', data: Buffer.alloc(0)},
      {path: 'a.txt', data: Buffer.alloc(0)},
    ];
    expect(() => tar(twice)).toThrow('Duplicate path in the archive: a.txt');
    expect(() => splitPath('x'.repeat(300))).toThrow('Path too long');
    expect(splitPath('short/name')).toEqual({name: 'short/name', prefix: ''});
  });
});
