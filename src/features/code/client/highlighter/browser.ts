/**
 * `@nest/code-highlighter` in the browser bundle: the highlighter as a lazy component,
 * in its own chunk (see ../../plugin.ts). A first load renders no code block (the article is
 * adopted with the server's markup: src/features/static-article), so only a block rendered later
 * (a client-side navigation) loads it.
 */
import {lazy} from 'react';

export default lazy(() => import('./Highlighted'));
