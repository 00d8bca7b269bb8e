import type { CSSProperties } from 'react';
import { useLatchInstance } from '../context.js';
import { useStore } from './useStore.js';

/** The instance's theme variables as an inline style, so two instances can differ. */
export function useThemeStyle(): CSSProperties {
  // React sets `--*` keys as custom properties; CSSProperties just does not list them.
  return useStore(useLatchInstance().theme).themeVariables as CSSProperties;
}

/** The theme mode, for `data-theme` on Latch's root elements. */
export function useThemeMode() {
  return useStore(useLatchInstance().theme).themeMode;
}
