import { buttonStyles } from './components/Button/Button.styles.js';
import { connectButtonStyles } from './components/ConnectButton/ConnectButton.styles.js';
import { toastStyles } from './components/Toast/Toast.styles.js';

/**
 * The CSS of what `LatchProvider` renders before the modal is opened, rendered once by it.
 * The modal's own CSS (`views/styles.ts`) travels in the modal's lazily loaded chunk.
 */
export const latchStyles = [buttonStyles, connectButtonStyles, toastStyles].join('');
