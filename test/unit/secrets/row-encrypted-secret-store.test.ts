import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { RowEncryptedSecretStore } from '../../../src/main/core/secrets/row-encrypted-secret-store.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

function filesIn() {
  const dir = tempFolder('fw-row-secrets-');
  return {
    dir,
    dbFile: path.join(dir, 'data', 'secrets', 'platform-secrets.sqlite'),
    keyFile: path.join(dir, 'data', 'keys', 'secret-store.key'),
  };
}

const SESSION_NAME = 'runtime-session:Cookie0123456789abcdefghijklmnopqrstuvwxyzABCD';
const SESSION_VALUE = 'eyJzZXNzaW9uSWQiOiJyc19zZWNyZXRfdmFsdWUifQ';
const REF_NAME = 'job-recovery-ref:pjob_4242424242';
const REF_VALUE = 'jrr_secret_reference_value_123';

/** Every byte the store left on disk: the database with its -wal/-shm files. */
function storeBytes(dbFile: string): string {
  const folder = path.dirname(dbFile);
  return readdirSync(folder)
    .map((name) => readFileSync(path.join(folder, name)).toString('latin1'))
    .join('\n');
}

describe('RowEncryptedSecretStore', () => {
  it('round-trips, and a new instance with the same key file reads what was written', async () => {
    const files = filesIn();
    const store = RowEncryptedSecretStore.open(files);
    expect(await store.get(REF_NAME)).toBeUndefined();
    await store.set(REF_NAME, REF_VALUE);
    await store.set(SESSION_NAME, SESSION_VALUE);
    await store.set(SESSION_NAME, `${SESSION_VALUE}2`);
    expect(await store.get(REF_NAME)).toBe(REF_VALUE);
    expect(await store.has(SESSION_NAME)).toBe(true);
    store.close();

    const again = RowEncryptedSecretStore.open(files);
    expect(await again.get(REF_NAME)).toBe(REF_VALUE);
    expect(await again.get(SESSION_NAME)).toBe(`${SESSION_VALUE}2`);
    expect(await again.namesWithPrefix('runtime-session:')).toEqual([SESSION_NAME]);
    expect(await again.namesWithPrefix('job-recovery-ref:pjob_42')).toEqual([REF_NAME]);
    expect(await again.delete(REF_NAME)).toBe(true);
    expect(await again.delete(REF_NAME)).toBe(false);
    again.close();
    const third = RowEncryptedSecretStore.open(files);
    expect(await third.get(REF_NAME)).toBeUndefined();
    expect(await third.get(SESSION_NAME)).toBe(`${SESSION_VALUE}2`);
    third.close();
  });

  it('writes no entry name and no value into its files, and a fresh IV on every write', async () => {
    const files = filesIn();
    const store = RowEncryptedSecretStore.open(files);
    await store.set(REF_NAME, REF_VALUE);
    await store.set(SESSION_NAME, SESSION_VALUE);
    const bytes = storeBytes(files.dbFile);
    store.close();
    const all = storeBytes(files.dbFile);
    for (const text of [bytes, all])
      for (const plain of [
        REF_VALUE,
        SESSION_VALUE,
        'pjob_4242424242',
        'Cookie0123456789',
        'runtime-session',
        'job-recovery-ref',
      ])
        expect(text.includes(plain), plain).toBe(false);
    const key = readFileSync(files.keyFile, 'utf8').trim();
    expect(all.includes(key)).toBe(false);

    const db = new BetterSqlite3(files.dbFile);
    const ivs = () =>
      db
        .prepare('SELECT iv FROM secrets')
        .all()
        .map((r) => (r as { iv: Buffer }).iv.toString('hex'));
    const before = ivs();
    db.close();
    const reopened = RowEncryptedSecretStore.open(files);
    await reopened.set(REF_NAME, REF_VALUE);
    reopened.close();
    const after = new BetterSqlite3(files.dbFile);
    const now = after
      .prepare('SELECT iv FROM secrets')
      .all()
      .map((r) => (r as { iv: Buffer }).iv.toString('hex'));
    after.close();
    expect(new Set([...before, ...now]).size).toBe(3);
  });

  it('refuses a changed row (and a row moved to another name) without overwriting it', async () => {
    const files = filesIn();
    const store = RowEncryptedSecretStore.open(files);
    await store.set(REF_NAME, REF_VALUE);
    await store.set(SESSION_NAME, SESSION_VALUE);
    store.close();

    const db = new BetterSqlite3(files.dbFile);
    const rows = db.prepare('SELECT name, data FROM secrets').all() as { name: Buffer; data: Buffer }[];
    const changed = Buffer.from(rows[0]!.data);
    changed[0] = changed[0]! ^ 0x01;
    db.prepare('UPDATE secrets SET data = ? WHERE name = ?').run(changed, rows[0]!.name);
    db.close();
    const tampered = readFileSync(files.dbFile);

    const reopened = RowEncryptedSecretStore.open(files);
    const reads = await Promise.allSettled([reopened.get(REF_NAME), reopened.get(SESSION_NAME)]);
    const refused = reads.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(refused).toHaveLength(1);
    expect(String(refused[0]!.reason.message)).toMatch(/does not decrypt/);
    for (const secret of [REF_VALUE, SESSION_VALUE, REF_NAME, SESSION_NAME])
      expect(String(refused[0]!.reason.message)).not.toContain(secret);
    reopened.close();
    expect(readFileSync(files.dbFile).equals(tampered)).toBe(true);

    // swapping two rows' ciphertexts: each is bound to its own name
    const swap = new BetterSqlite3(files.dbFile);
    const [a, b] = swap.prepare('SELECT name, iv, tag, data FROM secrets').all() as {
      name: Buffer;
      iv: Buffer;
      tag: Buffer;
      data: Buffer;
    }[];
    const put = swap.prepare('UPDATE secrets SET iv = ?, tag = ?, data = ? WHERE name = ?');
    put.run(b!.iv, b!.tag, b!.data, a!.name);
    put.run(a!.iv, a!.tag, a!.data, b!.name);
    swap.close();
    const swapped = RowEncryptedSecretStore.open(files);
    await expect(swapped.get(REF_NAME)).rejects.toThrow(/does not decrypt/);
    await expect(swapped.get(SESSION_NAME)).rejects.toThrow(/does not decrypt/);
    swapped.close();
  });

  it('refuses a store whose key file is missing (or another one), leaving the database as it is', async () => {
    const files = filesIn();
    const store = RowEncryptedSecretStore.open(files);
    await store.set(REF_NAME, REF_VALUE);
    store.close();
    const before = readFileSync(files.dbFile);
    const key = readFileSync(files.keyFile);

    rmSync(files.keyFile);
    expect(() => RowEncryptedSecretStore.open(files)).toThrow(/data key .* is missing/);
    expect(existsSync(files.keyFile)).toBe(false);
    expect(readFileSync(files.dbFile).equals(before)).toBe(true);

    // another key (a fresh store's) is refused too
    const other = filesIn();
    RowEncryptedSecretStore.open(other).close();
    const wrong = { dbFile: files.dbFile, keyFile: other.keyFile };
    expect(() => RowEncryptedSecretStore.open(wrong)).toThrow(/is not the key of the secret store/);
    expect(readFileSync(files.dbFile).equals(before)).toBe(true);

    // the right key back: everything is there
    const restored = filesIn();
    const back = { dbFile: files.dbFile, keyFile: restored.keyFile };
    mkdirSync(path.dirname(back.keyFile), { recursive: true, mode: 0o700 });
    writeFileSync(back.keyFile, key, { mode: 0o600 });
    const reopened = RowEncryptedSecretStore.open(back);
    expect(await reopened.get(REF_NAME)).toBe(REF_VALUE);
    reopened.close();
  });

  it('keeps the key file 0600 and both folders 0700, apart from each other', async () => {
    const files = filesIn();
    const store = RowEncryptedSecretStore.open(files);
    await store.set(REF_NAME, REF_VALUE);
    const mode = (file: string) => statSync(file).mode & 0o777;
    expect(mode(files.keyFile)).toBe(0o600);
    expect(mode(path.dirname(files.keyFile))).toBe(0o700);
    expect(mode(files.dbFile)).toBe(0o600);
    expect(mode(path.dirname(files.dbFile))).toBe(0o700);
    for (const name of readdirSync(path.dirname(files.dbFile)))
      expect(mode(path.join(path.dirname(files.dbFile), name)), name).toBe(0o600);
    store.close();
    expect(readFileSync(files.keyFile, 'utf8')).toMatch(/^[A-Za-z0-9+/]{43}=\n$/);
    expect(() =>
      RowEncryptedSecretStore.open({
        dbFile: files.dbFile,
        keyFile: path.join(path.dirname(files.dbFile), 'k'),
      }),
    ).toThrow(/another folder/);
  });

  it('imports only the entries it does not hold yet', async () => {
    const store = RowEncryptedSecretStore.open(filesIn());
    await store.set(REF_NAME, 'newer-value');
    expect(store.importMissing({ [REF_NAME]: 'older-value', [SESSION_NAME]: SESSION_VALUE })).toBe(1);
    expect(await store.get(REF_NAME)).toBe('newer-value');
    expect(await store.get(SESSION_NAME)).toBe(SESSION_VALUE);
    store.close();
  });
});
