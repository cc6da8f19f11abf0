import {execFileSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {members, tarGz} from './tar';

describe('tarGz', () => {
  it('writes an archive the system tar lists and extracts, folders first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tar-test-'));
    try {
      const long = `${'deep/'.repeat(25)}file-with-a-long-name.html`;
      const archive = await tarGz([
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
      // One modification time for every file (folders carry none in portable headers), owner 0/0.
      const verbose = execFileSync('tar', ['-tvzf', join(dir, 'a.tgz')], {encoding: 'utf8'});
      for (const line of verbose.trim().split('\n')) {
        expect(line).toContain(' 0/0 ');
        if (line.startsWith('-')) expect(line).toContain('2022-06-22');
      }
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });

  it('gives the same bytes for the same entries', async () => {
    const entries = [{path: 'x/y.txt', data: Buffer.from('hello')}];
    expect((await tarGz(entries)).equals(await tarGz(entries))).toBe(true);
  });
});

describe('members', () => {
  it('lists each folder once, before the first file under it', () => {
    expect(
      members([
        {path: 'a/b/c.txt', data: Buffer.alloc(0)},
        {path: 'a/d.txt', data: Buffer.alloc(0)},
      ]),
    ).toEqual(['a/', 'a/b/', 'a/b/c.txt', 'a/d.txt']);
  });

  it('refuses paths that would leave the archive, and duplicates', () => {
    const one = (path: string) => [{path, data: Buffer.alloc(0)}];
    expect(() => members(one('/etc/passwd'))).toThrow('Not a relative path');
    expect(() => members(one('a/../../b'))).toThrow('Not a relative path');
    expect(() => members(one(''))).toThrow('Not a relative path');
    const twice = [
      {path: 'a.txt', data: Buffer.alloc(0)},
      {path: 'a.txt', data: Buffer.alloc(0)},
    ];
    expect(() => members(twice)).toThrow('Duplicate path in the archive: a.txt');
  });
});
