/**
 * H3 rules engine: pure functions shared by the renderer (live form validation) and main
 * (guard before anything is sent). No DOM, no Node APIs.
 */
export * from './code-points.js';
export * from './draft.js';
export * from './effective-limits.js';
export * from './violations.js';
export * from './validate-draft.js';
export * from './reference-numbering.js';
export * from './mode-switch.js';
export * from './reference-trim.js';
export * from './build-request.js';
