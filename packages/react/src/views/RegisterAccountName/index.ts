// The chunk of the two name views (spec §2): views/index.ts imports this module only dynamically.
export { RegisterAccountNameView } from './RegisterAccountNameView.js';
export { RegisterAccountNameSuccessView } from './RegisterAccountNameSuccessView.js';
