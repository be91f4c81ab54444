import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EncryptedFileSecretStore } from '../../../../src/main/core/secrets/encrypted-file-secret-store.js';
import { RecoveryRefs } from '../../../../src/main/core/secrets/recovery-refs.js';
import { tempFolder } from '../../../support/worlds/temp-folder.js';

const fileIn = () => {
  const dir = tempFolder('fw-secrets-');
  return path.join(dir, 'nested', 'secrets.enc');
};

const CREDENTIAL = 'app-credential-for-tests';
const REF = 'jrr_secret_reference_value_123';

describe('EncryptedFileSecretStore', () => {
  it('keeps entries across instances, in a 0600 file that holds neither secret nor entry name', async () => {
    const file = fileIn();
    const store = new EncryptedFileSecretStore(file, CREDENTIAL);
    await store.set('job-recovery-ref:job_1', REF);
    await store.set('runtime-session:abc', 'sess_value_987');
    const again = new EncryptedFileSecretStore(file, CREDENTIAL);
    expect(await again.get('job-recovery-ref:job_1')).toBe(REF);
    expect(await again.has('runtime-session:abc')).toBe(true);
    const bytes = readFileSync(file, 'utf8');
    for (const plain of [REF, 'sess_value_987', 'job_1', 'runtime-session', CREDENTIAL])
      expect(bytes).not.toContain(plain);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await again.delete('runtime-session:abc')).toBe(true);
    expect(await again.get('runtime-session:abc')).toBeUndefined();
  });

  it('refuses a file of another credential (or changed) without overwriting it, and the error names no secret', async () => {
    const file = fileIn();
    await new EncryptedFileSecretStore(file, CREDENTIAL).set('job-recovery-ref:j', REF);
    const before = readFileSync(file);
    const other = new EncryptedFileSecretStore(file, 'another-credential');
    await expect(other.get('job-recovery-ref:j')).rejects.toThrow(/does not decrypt/);
    await expect(other.set('job-recovery-ref:k', 'x1234')).rejects.toThrow(/does not decrypt/);
    expect(readFileSync(file).equals(before)).toBe(true);
    writeFileSync(file, before.toString('utf8').replace(/"data":"./, '"data":"A'));
    const error = await new EncryptedFileSecretStore(file, CREDENTIAL)
      .get('job-recovery-ref:j')
      .catch((e: Error) => e);
    expect(String((error as Error).message)).not.toContain(CREDENTIAL);
  });

  it('loses no update under concurrent writes', async () => {
    const store = new EncryptedFileSecretStore(fileIn(), CREDENTIAL);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.set(`job-recovery-ref:${i}`, `ref-value-${i}`)),
    );
    for (let i = 0; i < 20; i += 1) expect(await store.get(`job-recovery-ref:${i}`)).toBe(`ref-value-${i}`);
  });
});

describe('RecoveryRefs', () => {
  it('stores a reference and never overwrites it with an empty one', async () => {
    const refs = new RecoveryRefs(new EncryptedFileSecretStore(fileIn(), CREDENTIAL));
    await refs.remember('job_1', REF);
    await refs.remember('job_1', '');
    await refs.remember('job_1', undefined);
    await refs.remember('job_1', '   ');
    expect(await refs.recall('job_1')).toBe(REF);
    expect(await refs.recall('job_2')).toBeUndefined();
  });
});
