import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeWhenDone } from '../../support/worlds/cleanup.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

// The shared test worlds' cleanup: a folder (or world) opened in a test is gone when that test
// ends; one opened in a beforeAll lives until the file's tests are done; a close runs once.
describe('the test worlds cleanup registry', () => {
  let fileFolder: string;
  let testFolder: string;
  const closes: string[] = [];

  beforeAll(() => {
    fileFolder = tempFolder('fw-registry-file-');
  });

  it('a folder made in a test exists during it', () => {
    testFolder = tempFolder('fw-registry-test-');
    expect(existsSync(testFolder)).toBe(true);
  });

  it('is removed when that test ends; a beforeAll folder stays for the next test', () => {
    expect(existsSync(testFolder)).toBe(false);
    expect(existsSync(fileFolder)).toBe(true);
  });

  it('closes a world once, even when the test closed it first', async () => {
    const world = closeWhenDone({ close: async () => void closes.push('closed') });
    await world.close();
    expect(closes).toEqual(['closed']);
  });

  it('the world closed by the test was not closed again when it ended', () => {
    expect(closes).toEqual(['closed']);
  });

  it('closes a world the test left open when it ends', () => {
    closeWhenDone({ close: async () => void closes.push('left open') });
    expect(closes).toEqual(['closed']);
  });

  it('(the world left open was closed)', () => {
    expect(closes).toEqual(['closed', 'left open']);
  });

  afterAll(() => {
    // the file's own hooks run before the registry's: the beforeAll folder is still here
    expect(existsSync(fileFolder)).toBe(true);
  });
});
