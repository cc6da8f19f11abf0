/**
 * A desktop-only part of the shell: the docs menu's column and the table of contents' column.
 * Docusaurus renders both on the server for every width (it cannot know the reader's) and
 * unmounts them at a phone's width right after hydration, once `useWindowSize()` has read the
 * width. Hydrating them there built fibers and ran their components only to throw them away: on
 * /controllers at 412 px, 354 fibers for the menu and 70 for the table of contents, two fifths of
 * what the first load hydrated.
 *
 * So while React hydrates a page at a phone's width (the width Docusaurus calls "mobile"), the
 * part is a static part (./StaticPart.tsx): React adopts the server's nodes and builds nothing
 * under them; Docusaurus then unmounts it as before. At a desktop width, in a later mount (the
 * window widened, another page), or without server markup (`docusaurus start`) it renders its
 * children. Its element has `display: contents`, so the layout is the same as without it.
 */
import React, {type ReactNode} from 'react';
import {mobileMaxWidth} from '../../shell/breakpoints';
import StaticPart from './StaticPart';

const atPhoneWidth = (): boolean => window.innerWidth <= mobileMaxWidth;

export interface Props {
  /** Which part (`desktop-menu`, `desktop-toc`: one element per name in a page). */
  readonly name: string;
  readonly children: ReactNode;
}

export default function DesktopPart({name, children}: Props): ReactNode {
  return (
    <StaticPart name={name} adoptIf={atPhoneWidth}>
      {children}
    </StaticPart>
  );
}
