/**
 * `@nest/code-highlighter` in the server bundle: the highlighter itself, imported
 * statically, so the server renders highlighted blocks without suspending (a suspended
 * boundary would be streamed out of place, behind an inline script).
 */
import Highlighted from './Highlighted';

export default Highlighted;
