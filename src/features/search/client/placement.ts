/**
 * Where the suggestions panel goes: under the box, starting at its left edge, moved left as far
 * as it takes to end `margin` px inside the viewport, and never starting before `margin` px.
 * The box sits at the right of the header at most widths, so at 641-996 px and at 200 % zoom a
 * panel starting at the box would run past the right edge (WCAG 1.4.10, reflow).
 * Returns the panel's `left` relative to the box, in px.
 */
export function panelOffset(
  boxLeft: number,
  panelWidth: number,
  viewportWidth: number,
  margin = 16,
): number {
  const overflow = boxLeft + panelWidth - (viewportWidth - margin);
  const shifted = overflow > 0 ? -overflow : 0;
  // Never past the left margin (a panel wider than the viewport is capped in CSS).
  return Math.max(shifted, margin - boxLeft);
}
