/**
 * The static article (./README.md): registers the delegated listeners of the article's
 * interactive parts (./client/behaviours.ts) as a client module. The article's element itself
 * is `StaticArticle` (./client/StaticArticle.tsx), rendered by src/theme/DocItem/Content.
 */
import {join} from 'node:path';
import type {Plugin} from '@docusaurus/types';

export default function staticArticle(): Plugin {
  return {
    name: 'nest-static-article',
    getClientModules: () => [join(__dirname, 'client', 'behaviours.ts')],
  };
}
