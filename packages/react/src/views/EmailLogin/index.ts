// The embedded wallet's login views: one chunk, loaded from the Connect view and the view registry.
export { EmailLogin } from './EmailLogin.js';
export { EmailVerifyOtpView } from './EmailVerifyOtpView.js';
export { EmailVerifyDeviceView } from './EmailVerifyDeviceView.js';
