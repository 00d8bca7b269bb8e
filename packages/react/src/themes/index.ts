export type ThemeMode = 'dark' | 'light';

/** CSS custom properties, all `--latch-` prefixed, applied on Latch's root elements. */
export type ThemeVariables = Record<`--latch-${string}`, string>;

/** Spec §2 defaults shared by both modes. */
const shared: ThemeVariables = {
  '--latch-font-family':
    'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  '--latch-font-size-master': '10px',
  '--latch-border-radius-master': '4px',
  '--latch-z-index': '999',
  '--latch-modal-width': '360px',
  '--latch-duration': '150ms',
  '--latch-accent': '#667dff',
  '--latch-accent-foreground': '#ffffff',
};

export function darkTheme(overrides: ThemeVariables = {}): ThemeVariables {
  return {
    ...shared,
    '--latch-color-background': '#121313',
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
    '--latch-color-background': '#ffffff',
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
