/** Zod schemas of every request and response of the Public Model and Media API. */
export * from './common.js';
export * from './errors.js';
export * from './discovery.js';
export * from './assets.js';
export * from './media-jobs.js';
export * from './prompt-optimization.js';
export * from './admission.js';
export * from './chat.js';
export * from './embeddings.js';
export * from './rerank.js';
export * from './ocr.js';
export * from './transcription.js';
export * from './audio-generation.js';
export * from './image-generation.js';
export * from './document-parse.js';
export * from './media-spec-contract.js';
