/**
 * The static article (./README.md): registers, as client modules, the check that the server's
 * HTML is the page the URL names before React hydrates or adopts it (./client/serverPage.ts),
 * and the delegated listeners of the article's interactive parts (./client/behaviours.ts). The
 * article's element itself is `StaticArticle` (./client/StaticArticle.tsx), rendered by
 * src/theme/DocItem/Content.
 */
import {join} from 'node:path';
import type {Plugin} from '@docusaurus/types';

export default function staticArticle(): Plugin {
  return {
    name: 'nest-static-article',
    getClientModules: () => [
      join(__dirname, 'client', 'serverPage.ts'),
      join(__dirname, 'client', 'behaviours.ts'),
    ],
  };
}
