import { LATCH_CONSTANTS } from '@latch/wasm';

export type ThemeMode = 'dark' | 'light';

/** CSS custom properties, all `--latch-` prefixed, applied on Latch's root elements. */
export type ThemeVariables = Record<`--latch-${string}`, string>;

const { theme, modal } = LATCH_CONSTANTS;

/** Behaviour 1.15 defaults shared by both modes (numbers from latch-core's constants). */
const shared: ThemeVariables = {
  '--latch-font-family':
    'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  '--latch-font-size-master': theme.fontSizeMaster,
  '--latch-border-radius-master': theme.borderRadiusMaster,
  '--latch-z-index': String(theme.zIndex),
  '--latch-modal-width': `${modal.widthPx}px`,
  '--latch-duration': `${modal.transitionMs}ms`,
  '--latch-height-duration': `${modal.heightMs}ms`,
  // 4.8:1 against the white label (WCAG AA), 3.8:1 as a focus ring on the dark background.
  '--latch-accent': '#4c63f0',
  '--latch-accent-foreground': '#ffffff',
};

export function darkTheme(overrides: ThemeVariables = {}): ThemeVariables {
  return {
    ...shared,
    '--latch-color-background': theme.backgroundDark,
    '--latch-color-surface': '#1e1f1f',
    '--latch-color-surface-hover': '#2a2b2b',
    '--latch-color-foreground': '#e4e7e7',
    '--latch-color-foreground-muted': '#9a9f9f',
    '--latch-color-border': 'rgba(255, 255, 255, 0.1)',
    '--latch-color-error': '#f25a67',
    '--latch-color-backdrop': 'rgba(0, 0, 0, 0.6)',
    ...overrides,
  };
}

export function lightTheme(overrides: ThemeVariables = {}): ThemeVariables {
  return {
    ...shared,
    '--latch-color-background': theme.backgroundLight,
    '--latch-color-surface': '#f3f3f3',
    '--latch-color-surface-hover': '#e9e9e9',
    '--latch-color-foreground': '#141414',
    '--latch-color-foreground-muted': '#5e6363',
    '--latch-color-border': 'rgba(0, 0, 0, 0.1)',
    '--latch-color-error': '#d52e3f',
    '--latch-color-backdrop': 'rgba(0, 0, 0, 0.3)',
    ...overrides,
  };
}

export function themeFor(mode: ThemeMode, overrides?: ThemeVariables): ThemeVariables {
  return mode === 'light' ? lightTheme(overrides) : darkTheme(overrides);
}
