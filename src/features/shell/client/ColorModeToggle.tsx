/**
 * The header's colour mode button, with an order that always changes what the reader sees on
 * the first click. The stock order is system → light → dark: for a reader whose system is light
 * the first click changed nothing visible. Here it is system → the other mode → the system's
 * mode chosen explicitly → system again.
 */
import React, {type ReactNode} from 'react';
import {useColorMode, useThemeConfig} from '@docusaurus/theme-common';
import ColorModeToggle from '@theme/ColorModeToggle';
import type {Props} from '@theme/Navbar/ColorModeToggle';

type Choice = 'light' | 'dark' | null;

/** The next choice after `current`, for a system whose own mode is `system`. */
export function nextColorMode(current: Choice, system: 'light' | 'dark'): Choice {
  const other = system === 'dark' ? 'light' : 'dark';
  if (current === null) return other;
  if (current === other) return system;
  return null;
}

export default function NavbarColorModeToggle({className}: Props): ReactNode {
  const {disableSwitch, respectPrefersColorScheme} = useThemeConfig().colorMode;
  const {colorModeChoice, setColorMode} = useColorMode();
  if (disableSwitch) return null;
  return (
    <ColorModeToggle
      className={className}
      respectPrefersColorScheme={respectPrefersColorScheme}
      value={colorModeChoice}
      onChange={() => {
        const system = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
        setColorMode(
          respectPrefersColorScheme
            ? nextColorMode(colorModeChoice, system)
            : colorModeChoice === 'dark'
              ? 'light'
              : 'dark',
        );
      }}
    />
  );
}
