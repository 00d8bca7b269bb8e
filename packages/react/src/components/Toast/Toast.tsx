import { useLatchInstance } from '../../context.js';
import { useStore } from '../../hooks/useStore.js';
import { useThemeMode, useThemeStyle } from '../../hooks/useThemeStyle.js';

/** The toast on screen (behaviour 1.14 "Toasts"); errors are alerts, the rest polite status messages. */
export function Toast() {
  const latch = useLatchInstance();
  const { current } = useStore(latch.toasts.store);
  const themeStyle = useThemeStyle();
  const themeMode = useThemeMode();
  if (!current) return null;
  return (
    <div
      className="latch-toast"
      data-theme={themeMode}
      data-variant={current.variant}
      data-testid="toast"
      role={current.variant === 'error' ? 'alert' : 'status'}
      style={themeStyle}
    >
      {latch.t(current.message)}
    </div>
  );
}
