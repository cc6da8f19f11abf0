/**
 * Headings must not skip a level (an `h1` followed by an `h3`): screen-reader users
 * navigate by heading level, and axe reports the skip as `heading-order`. Catching it
 * here fails the build at once, naming the file and line, instead of in the browser suite.
 */
import type {Root} from 'mdast';
import {visit} from 'unist-util-visit';
import {location, type FileLike} from './fileLocation';

export default function headingOrder() {
  return (tree: Root, file: FileLike): void => {
    // The page title (front matter or the first `#`) counts as level 1.
    let previous = 1;
    visit(tree, 'heading', (node) => {
      if (node.depth > previous + 1) {
        throw new Error(
          `${location(file, node.position?.start.line)}: heading level ${node.depth} follows level ${previous}; ` +
            `use a level-${previous + 1} heading (levels must not be skipped)`,
        );
      }
      previous = node.depth;
    });
  };
}
