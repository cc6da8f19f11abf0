import {useEffect, type FocusEvent, type RefObject} from 'react';

/**
 * Closes an open header popup (the "More" menu, the version menu) the way readers expect: a
 * pointer down outside `root` closes it; Escape closes it and gives focus back to `button`;
 * focus leaving `root` (Tab past the last link) closes it, through the returned handler, which
 * goes on `root` as `onBlur`. `setOpen` is the popup's state setter (stable). The document
 * listeners exist only while the popup is open.
 */
export function useDismiss(
  open: boolean,
  setOpen: (open: boolean) => void,
  root: RefObject<HTMLElement | null>,
  button: RefObject<HTMLElement | null>,
): (event: FocusEvent) => void {
  useEffect(() => {
    if (!open) return undefined;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, setOpen, root, button]);
  return (event) => {
    if (!root.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
  };
}
