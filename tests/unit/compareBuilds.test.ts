import {mkdtempSync, mkdirSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {createHash} from 'node:crypto';
import {describe, expect, it} from 'vitest';
import {
  classRenames,
  compareBuilds,
  inlineDigests,
  normaliseAssets,
  normaliseCsp,
} from '../../scripts/compare-builds.mjs';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** A build directory holding `files` (path -> text). */
function build(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'compare-builds-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), {recursive: true});
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('compare-builds: normalising', () => {
  it('drops the hashes of asset names, chunk ids included, and keeps their names', () => {
    expect(
      normaliseAssets(
        '<script src="/assets/js/main.9b1f2c3d.js"></script><link href="/assets/js/1df93b7f.3c5a0b1e.js">' +
          '<link href=/assets/js/1084.0a1b2c3d.js><link href="/assets/css/styles.5e6f7a8b.css">',
      ),
    ).toBe(
      '<script src="/assets/js/main.#.js"></script><link href="/assets/js/#.#.js">' +
        '<link href=/assets/js/#.#.js><link href="/assets/css/styles.#.css">',
    );
    expect(normaliseAssets('/550.sw.js /sw.js')).toBe('/#.sw.js /sw.js');
  });

  it('renames a moved CSS module class only where every page agrees', () => {
    const renames = classRenames([
      [
        '<b class=title_aaaa></b><i class="x title_bbbb"></i>',
        '<b class=title_cccc></b><i class="x title_bbbb"></i>',
      ],
      ['<b class=title_aaaa></b>', '<b class=title_cccc></b>'],
      // Disagreement: input_dddd becomes two different names, so it is not renamed.
      ['<b class=input_dddd></b>', '<b class=input_eeee></b>'],
      ['<b class=input_dddd></b>', '<b class=input_ffff></b>'],
    ]);
    expect([...renames]).toEqual([['title_aaaa', 'title_cccc']]);
  });

  it('replaces CSP hashes with digests of the normalised inline code, sorted per directive', () => {
    const before = '<script>load("/assets/js/main.11111111.js")</script><p style="color:red">';
    const after = '<script>load("/assets/js/main.22222222.js")</script><p style="color:red">';
    const a = inlineDigests([before], normaliseAssets);
    const b = inlineDigests([after], normaliseAssets);
    const csp = (html: string) =>
      `script-src 'self' ${sha(/<script>(.*)<\/script>/.exec(html)?.[1] ?? '')}; style-src ${sha('color:red')}`;
    expect(normaliseCsp(csp(before), a)).toBe(normaliseCsp(csp(after), b));
    // A script whose text really changed keeps a different digest.
    const changed = inlineDigests(['<script>load("/other.js")</script>'], normaliseAssets);
    expect(normaliseCsp(`script-src ${sha('load("/other.js")')}`, changed)).not.toBe(
      normaliseCsp(csp(before).split(';')[0], a),
    );
  });
});

describe('compare-builds: two builds', () => {
  it('finds builds that differ in hashes only the same, and reports a real difference', () => {
    const before = build({
      'index.html': '<p class=a_1111>Hi</p><script src="/assets/js/main.aaaaaaaa.js"></script>',
      'assets/js/main.aaaaaaaa.js': '1',
      'offline.json': JSON.stringify({
        pages: ['/'],
        files: ['/assets/js/main.aaaaaaaa.js'],
        bytes: 10,
      }),
    });
    const same = build({
      'index.html': '<p class=a_2222>Hi</p><script src="/assets/js/main.bbbbbbbb.js"></script>',
      'assets/js/main.bbbbbbbb.js': '2',
      'offline.json': JSON.stringify({
        pages: ['/'],
        files: ['/assets/js/main.bbbbbbbb.js'],
        bytes: 12,
      }),
    });
    const different = build({
      'index.html': '<p class=a_2222>Hello</p><script src="/assets/js/main.bbbbbbbb.js"></script>',
      'assets/js/main.bbbbbbbb.js': '2',
      'offline.json': JSON.stringify({
        pages: ['/'],
        files: ['/assets/js/main.bbbbbbbb.js'],
        bytes: 12,
      }),
    });
    const ok = compareBuilds(before, same);
    expect(ok.same).toBe(true);
    expect(ok.lines).toContain('offline.json: bytes 10 -> 12 (+2)');
    const changed = compareBuilds(before, different);
    expect(changed.same).toBe(false);
    expect(changed.lines).toContain('index.html: differs');
  });
});
