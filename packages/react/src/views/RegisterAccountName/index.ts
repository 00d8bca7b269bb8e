// The chunk of the two name views (behaviour 1.1): views/index.ts imports this module only dynamically.
export { RegisterAccountNameView } from './RegisterAccountNameView.js';
export { RegisterAccountNameSuccessView } from './RegisterAccountNameSuccessView.js';
