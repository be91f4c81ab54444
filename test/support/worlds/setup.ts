/**
 * Vitest's setup file (both projects): tells the cleanup registry when a test is running, and drains
 * it after each test and after each file. Hooks of a setup file run after the test file's own
 * `afterEach`/`afterAll`, so a test that closes its world itself still does so before its folder is
 * removed.
 */
import { afterAll, afterEach, TestRunner } from 'vitest';
import { drain, tellTestsBy } from './cleanup.js';

tellTestsBy(() => Boolean(TestRunner.getCurrentTest()));
afterEach(() => drain('test'));
afterAll(() => drain('file'));
