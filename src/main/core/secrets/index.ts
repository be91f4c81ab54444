export * from './secret-store.js';
export * from './keytar-secret-store.js';
export * from './unavailable-secret-store.js';
export * from './safe-storage-secret-store.js';
export * from './env-secret-store.js';
export * from './select-secret-store.js';
export * from './profile-credentials.js';
export * from './credential-fingerprint.js';
