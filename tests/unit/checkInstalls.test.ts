import {describe, expect, it} from 'vitest';
import {
  checkDocs,
  checkInstalls,
  checkStartCommands,
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

  it('a git clone needs a checkout of a commit in the same block', () => {
    const unpinned =
      '```bash\ngit clone https://github.com/nestjs/typescript-starter.git project\ncd project\nnpm install\n```\n';
    expect(checkStartCommands(unpinned, 'docs/p.md')).toEqual([
      "docs/p.md:2: `git clone https://github.com/nestjs/typescript-starter.git project` clones today's default branch: add `git checkout <commit>` of the last Nest 8 commit in the same block",
    ]);
    const pinnedClone = unpinned.replace('cd project\n', 'cd project\ngit checkout 8380438\n');
    expect(checkStartCommands(pinnedClone, 'docs/p.md')).toEqual([]);
    // A checkout in another block does not pin this one; a branch name is not a commit.
    expect(
      checkStartCommands(`${unpinned}\n\`\`\`bash\ngit checkout 8380438\n\`\`\`\n`, 'docs/p.md'),
    ).toHaveLength(1);
    expect(
      checkStartCommands(unpinned.replace('cd project\n', 'git checkout master\n'), 'docs/p.md'),
    ).toHaveLength(1);
  });

  it('an npx command names a version unless the project or the page has the package pinned', () => {
    const text = [
      '```bash',
      'npx @nestjs/cli@8 new app',
      'npx nest generate module cats',
      'npx serverless offline',
      'npx typeorm migration:run',
      'npx degit nestjs/typescript-starter app',
      'npx degit@2 nestjs/typescript-starter#8380438 app',
      '```',
      'Or run `npx prisma init`.',
    ].join('\n');
    expect(checkStartCommands(text, 'docs/p.md')).toEqual([
      "docs/p.md:4: `npx serverless offline` fetches today's serverless: name a version (npx serverless@x), or install it on the page with a range first",
      "docs/p.md:5: `npx typeorm migration:run` fetches today's typeorm: name a version (npx typeorm@x), or install it on the page with a range first",
      "docs/p.md:6: `npx degit nestjs/typescript-starter app`: name degit's version and the commit to copy (degit@2 owner/repo#<commit>)",
      "docs/p.md:9: `npx prisma init` fetches today's prisma: name a version (npx prisma@x), or install it on the page with a range first",
    ]);
    const installing = `npm i typeorm@^0.2 prisma@3\n${text}`;
    expect(checkStartCommands(installing, 'docs/p.md')).toHaveLength(2);
  });

  it('knows the pinned sets, transitive packages and aliases included', () => {
    const versions = pinnedVersions();
    expect([...(versions.get('@nestjs/core') ?? [])]).toEqual(['8.4.7']);
    expect(versions.get('redis')).toEqual(new Set(['4.1.0', '3.1.2']));
    expect(versions.get('express')?.size).toBeGreaterThan(0);
  });

  it('every install, clone and npx command in docs/ gives Nest 8', () => {
    const {problems, commands} = checkDocs();
    expect(commands).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });
});
