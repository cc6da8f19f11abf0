/**
 * A static part of the shell: markup the server renders and the first load never needs React
 * for (the header's logo and links, the social icons, the panels of "More" and of the version
 * menu, the breadcrumbs, the previous/next links, the version note, the sponsors).
 *
 * While React hydrates the server's page, this renders its element with the server's nodes
 * adopted, by the static article's mechanism (./adopt.ts, ../README.md): React claims the
 * element and builds no fiber and runs no component under it. The element's own attributes given
 * here (`id`, `hidden`, `aria-*`, handlers) stay React's, so a panel still opens and closes. Its
 * links behave as Docusaurus' `Link` makes them. The part stays adopted while the location's
 * path is the one the server rendered: its links' active state and targets may depend on it, so
 * once the reader goes to another page it renders its children with React, for good. A later
 * mount (another page's part, the phone menu's drawer) or a page without server markup
 * (`docusaurus start`) renders its children.
 *
 * Each part has a name, unique in the page (`data-static-part`), by which it finds its server
 * element.
 */
import React, {type HTMLAttributes, type ReactNode} from 'react';
import {serverNodes, useAdoption} from './adopt';
import styles from './StaticPart.module.css';

/** The attribute that names a part's element. */
export const partAttribute = 'data-static-part';

export interface Props extends Omit<HTMLAttributes<HTMLElement>, 'children'> {
  /** The part's name, unique in a page. */
  readonly name: string;
  /**
   * The element (default a `div` with `display: contents`, which makes no box: its children
   * lay out as if they were its parent's).
   */
  readonly as?: 'div' | 'span' | 'ul' | 'nav';
  /** Adopt only if this holds while the page hydrates (default: always). */
  readonly adoptIf?: () => boolean;
  readonly children: ReactNode;
}

export default function StaticPart({
  name,
  as: Tag = 'div',
  adoptIf,
  className,
  children,
  ...attributes
}: Props): ReactNode {
  const {element, ref} = useAdoption(() =>
    (adoptIf?.() ?? true) ? document.querySelector(`[${partAttribute}="${name}"]`) : null,
  );
  const props = {
    ...attributes,
    className: className ?? (Tag === 'div' ? styles.contents : undefined),
    [partAttribute]: name,
  };
  if (element) {
    return (
      <Tag
        key="adopted"
        ref={ref as React.Ref<never>}
        {...props}
        // The same object in every render, so React never sets innerHTML (./adopt.ts).
        dangerouslySetInnerHTML={serverNodes}
        // A development build compares `__html` with the server's innerHTML: they differ on
        // purpose, and only for this element's own props.
        suppressHydrationWarning
      />
    );
  }
  return (
    <Tag key="rendered" {...props}>
      {children}
    </Tag>
  );
}
