import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What other applications already created in one person's workspace, by the grant's idempotency
 * key: `<workspace dir>/inter-app/sequence-creates.jsonl`, one line per sequence made (the calling
 * application, the key, the request digest, the sequence id — no grant, no session id). A replay
 * of the same action answers the sequence it made; the file survives restarts.
 */
export interface SequenceCreateEntry {
  callerAppKey: string;
  idempotencyKey: string;
  requestDigest: string;
  sequenceId: string;
  boardId: string;
  createdAt: string;
}

const FILE = path.join('inter-app', 'sequence-creates.jsonl');

const keyOf = (callerAppKey: string, idempotencyKey: string) =>
  JSON.stringify([callerAppKey, idempotencyKey]);

export class SequenceCreateLedger {
  /** By workspace folder, then by (caller, key); read from the file on first use. */
  private readonly byDir = new Map<string, Map<string, SequenceCreateEntry>>();
  /** Creations under way, so concurrent replays of one action create once. */
  private readonly running = new Map<string, Promise<SequenceCreateEntry>>();

  private entriesOf(dir: string): Map<string, SequenceCreateEntry> {
    const known = this.byDir.get(dir);
    if (known) return known;
    const entries = new Map<string, SequenceCreateEntry>();
    let text = '';
    try {
      text = readFileSync(path.join(dir, FILE), 'utf8');
    } catch {
      // no file yet: nothing was created here
    }
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const entry = JSON.parse(line) as SequenceCreateEntry;
        if (typeof entry.sequenceId === 'string')
          entries.set(keyOf(entry.callerAppKey, entry.idempotencyKey), entry);
      } catch {
        // a line cut short by a kill: its creation was not answered
      }
    }
    this.byDir.set(dir, entries);
    return entries;
  }

  find(dir: string, callerAppKey: string, idempotencyKey: string): SequenceCreateEntry | undefined {
    return this.entriesOf(dir).get(keyOf(callerAppKey, idempotencyKey));
  }

  /**
   * Runs `create` once per (workspace, caller, key): a concurrent call with the same key waits for
   * the first and gets its entry. The entry is written before it is answered.
   */
  async once(
    dir: string,
    fields: Omit<SequenceCreateEntry, 'sequenceId' | 'createdAt'>,
    create: () => Promise<string>,
  ): Promise<{ entry: SequenceCreateEntry; created: boolean }> {
    const id = `${dir}\u0000${keyOf(fields.callerAppKey, fields.idempotencyKey)}`;
    const underway = this.running.get(id);
    if (underway) return { entry: await underway, created: false };
    const work = (async () => {
      const entry: SequenceCreateEntry = {
        ...fields,
        sequenceId: await create(),
        createdAt: new Date().toISOString(),
      };
      mkdirSync(path.join(dir, 'inter-app'), { recursive: true, mode: 0o700 });
      appendFileSync(path.join(dir, FILE), JSON.stringify(entry) + '\n', { mode: 0o600 });
      this.entriesOf(dir).set(keyOf(entry.callerAppKey, entry.idempotencyKey), entry);
      return entry;
    })();
    this.running.set(id, work);
    try {
      return { entry: await work, created: true };
    } finally {
      this.running.delete(id);
    }
  }
}
