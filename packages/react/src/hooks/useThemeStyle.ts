import type { CSSProperties } from 'react';
import { useLatchInstance } from '../context.js';

/** The instance's theme variables as an inline style, so two instances can differ. */
export function useThemeStyle(): CSSProperties {
  // React sets `--*` keys as custom properties; CSSProperties just does not list them.
  return useLatchInstance().themeVariables as CSSProperties;
}
