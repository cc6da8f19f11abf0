import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';

/** Where a package is installed, as seen from the site (`siteDir`). */
export function packageDir(siteDir: string, name: string): string {
  const require = createRequire(join(siteDir, 'package.json'));
  return dirname(require.resolve(`${name}/package.json`));
}
