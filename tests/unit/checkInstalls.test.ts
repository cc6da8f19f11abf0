import {describe, expect, it} from 'vitest';
import {
  checkDocs,
  checkInstalls,
  installCommands,
  parseSpec,
  pinnedVersions,
} from '../../scripts/check-installs.mjs';

const pinned = new Map([
  ['@nestjs/core', new Set(['8.4.7'])],
  ['redis', new Set(['3.1.2', '4.1.0'])],
  ['kafkajs', new Set(['1.16.0'])],
]);

describe('check-installs', () => {
  it('reads package tokens with scopes and ranges', () => {
    expect(parseSpec('@nestjs/core@^8')).toEqual({name: '@nestjs/core', range: '^8'});
    expect(parseSpec('@nestjs/core')).toEqual({name: '@nestjs/core', range: null});
    expect(parseSpec('kafkajs@1')).toEqual({name: 'kafkajs', range: '1'});
  });

  it('finds commands in code blocks and in inline code, with their lines, flags left out', () => {
    const text =
      'Intro\n\n```bash\nnpm i --save kafkajs@^1 && npm run build\n$ npm install -D @types/node@^16\n```\n\nRun `npm i -g @nestjs/cli@^8` first.\n';
    expect(installCommands(text)).toEqual([
      {line: 4, command: 'npm i --save kafkajs@^1', packages: ['kafkajs@^1']},
      {line: 5, command: 'npm install -D @types/node@^16', packages: ['@types/node@^16']},
      {line: 8, command: 'npm i -g @nestjs/cli@^8', packages: ['@nestjs/cli@^8']},
    ]);
  });

  it('names the file and line of a package without a version, a tag, and a range that misses the pinned set', () => {
    const text = [
      'npm i --save kafkajs',
      'npm i @nestjs/core@latest',
      'npm i @nestjs/core@^9',
      'npm i redis@^4 kafkajs@^1.16',
    ].join('\n');
    expect(checkInstalls(text, 'docs/p.md', pinned)).toEqual([
      'docs/p.md:1: `npm i --save kafkajs` installs kafkajs without a version: name the line that works with Nest 8 (kafkajs@^x)',
      'docs/p.md:2: @nestjs/core@latest is not a version range (a tag such as latest moves past Nest 8)',
      'docs/p.md:3: @nestjs/core@^9 does not admit the pinned 8.4.7 (tools/samples, tools/behaviour)',
    ]);
  });

  it('knows the pinned sets, transitive packages and aliases included', () => {
    const versions = pinnedVersions();
    expect([...(versions.get('@nestjs/core') ?? [])]).toEqual(['8.4.7']);
    expect(versions.get('redis')).toEqual(new Set(['4.1.0', '3.1.2']));
    expect(versions.get('express')?.size).toBeGreaterThan(0);
  });

  it('every install command in docs/ names Nest 8 versions', () => {
    const {problems, commands} = checkDocs();
    expect(commands).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });
});
