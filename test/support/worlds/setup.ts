/**
 * Vitest's setup file (both projects): drains the cleanup registry after each test and after each
 * file. Hooks of a setup file run after the test file's own `afterEach`/`afterAll`, so a test that
 * closes its world itself still does so before its folder is removed.
 */
import { afterAll, afterEach } from 'vitest';
import { drain } from './cleanup.js';

afterEach(() => drain('test'));
afterAll(() => drain('file'));
