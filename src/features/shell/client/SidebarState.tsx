/**
 * Whether the desktop docs sidebar is open. The header toggle writes it; the
 * docs layout reads it. Starts open ("is sidebar opened" defaults to true).
 */
import React, {createContext, useContext, useMemo, useState, type ReactNode} from 'react';

interface SidebarState {
  readonly isOpen: boolean;
  readonly toggle: () => void;
}

const SidebarStateContext = createContext<SidebarState | null>(null);

export function SidebarStateProvider({children}: {children: ReactNode}): ReactNode {
  const [isOpen, setOpen] = useState(true);
  const value = useMemo(() => ({isOpen, toggle: () => setOpen((open) => !open)}), [isOpen]);
  return <SidebarStateContext.Provider value={value}>{children}</SidebarStateContext.Provider>;
}

export function useSidebarState(): SidebarState {
  const state = useContext(SidebarStateContext);
  if (!state) {
    throw new Error('useSidebarState must be used inside <SidebarStateProvider>');
  }
  return state;
}
