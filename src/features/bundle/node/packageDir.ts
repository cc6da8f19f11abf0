import {createRequire} from 'node:module';
import {existsSync} from 'node:fs';
import {dirname, join} from 'node:path';

/**
 * Where a package is installed, as seen from the site (`siteDir`). A package whose `exports`
 * hide its package.json (@docusaurus/theme-common) is found from its main entry, up to the
 * folder holding the package.json.
 */
export function packageDir(siteDir: string, name: string): string {
  const require = createRequire(join(siteDir, 'package.json'));
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch (error) {
    if ((error as {code?: string}).code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED') throw error;
  }
  let dir = dirname(require.resolve(name));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}
