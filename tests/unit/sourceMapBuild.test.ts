import {describe, expect, it} from 'vitest';
import {groupOf} from '../../scripts/sourceMapBuild.mjs';

describe('bundle-report and cpu-report groups', () => {
  it('groups the site by feature, packages by name', () => {
    expect(groupOf('webpack://nestjs-docs/./src/features/search/client/SearchBox.tsx')).toBe(
      'src/features/search',
    );
    expect(groupOf('webpack://nestjs-docs/./src/theme/SearchBar.tsx')).toBe('src/theme');
    expect(groupOf('webpack://nestjs-docs/./node_modules/react-dom/cjs/x.js')).toBe('react-dom');
    expect(groupOf('webpack://nestjs-docs/./node_modules/@docusaurus/core/lib/a.js')).toBe(
      '@docusaurus/core',
    );
  });
});
