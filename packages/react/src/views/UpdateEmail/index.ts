// The embedded wallet's e-mail update (behaviour 5.15): one chunk, opened from the Account view.
export { UpdateEmailPrimaryOtpView, UpdateEmailSecondaryOtpView, UpdateEmailView } from './UpdateEmailViews.js';
