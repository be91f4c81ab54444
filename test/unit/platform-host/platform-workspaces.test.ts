import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PlatformWorkspaces, type Subject } from '../../../src/main/core/platform/platform-workspaces.js';
import {
  legacySubjectKeyOf,
  subjectKeyOf,
} from '../../../src/main/core/platform/runtime-sessions/server-sessions.js';
import { openJournal } from '../../../src/main/core/journal/index.js';
import type { BridgeResponse } from '../../../src/shared/bridge/api.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

let dataDir: string;
let workspaces: PlatformWorkspaces;
const dispatcher = { dispatch: async (): Promise<BridgeResponse> => ({ ok: true, result: null }) };

beforeEach(() => {
  dataDir = tempFolder('fw-workspaces-');
  workspaces = new PlatformWorkspaces({ dataDir, workspaceDispatcher: () => dispatcher });
});
afterEach(async () => {
  await workspaces.close();
});

const person = { tenantId: 't1', accountId: 'a1', userId: 'u1' };
const personal: Subject = person;
const inOrgA: Subject = { ...person, organizationId: 'org-a' };
const inOrgB: Subject = { ...person, organizationId: 'org-b' };

const notesOf = (subject: Subject) =>
  workspaces.workspaceOf(subject).journal.settings.get<string[]>('test.notes') ?? [];
const note = (subject: Subject, text: string) =>
  workspaces.workspaceOf(subject).journal.settings.set('test.notes', [...notesOf(subject), text]);

describe('platform workspaces: one per person and context', () => {
  it('keeps a person’s personal work and each organization’s work in separate journals', () => {
    note(personal, 'personal draft');
    note(inOrgA, 'org A draft');
    note(inOrgB, 'org B draft');
    expect(notesOf(personal)).toEqual(['personal draft']);
    expect(notesOf(inOrgA)).toEqual(['org A draft']);
    expect(notesOf(inOrgB)).toEqual(['org B draft']);
    const dirs = [personal, inOrgA, inOrgB].map((s) => workspaces.workspaceOf(s).dir);
    expect(new Set(dirs).size).toBe(3);
    expect(workspaces.knownSubjects()).toHaveLength(3);
  });

  it('Team’s people of an organization are those of its tenant only', () => {
    const sameOrgIdOtherTenant: Subject = {
      tenantId: 't2',
      accountId: 'a9',
      userId: 'u9',
      organizationId: 'org-a',
    };
    const colleague: Subject = { tenantId: 't1', accountId: 'a2', userId: 'u2', organizationId: 'org-a' };
    for (const subject of [personal, inOrgA, inOrgB, sameOrgIdOtherTenant, colleague])
      workspaces.workspaceOf(subject);
    const members = workspaces
      .membersOf('t1', 'org-a')
      .map((s) => s.userId)
      .sort();
    expect(members).toEqual(['u1', 'u2']);
  });

  it('a folder of the old per-person key stays with the context it last recorded; the others start fresh', async () => {
    await workspaces.close();
    // what an earlier backend left: one folder for every context, last opened in org A
    const legacyDir = path.join(dataDir, 'subjects', legacySubjectKeyOf(person));
    mkdirSync(legacyDir, { recursive: true });
    writeFileSync(path.join(legacyDir, 'subject.json'), JSON.stringify(inOrgA));
    const journal = openJournal({ path: path.join(legacyDir, 'journal.sqlite') });
    journal.settings.set('test.notes', ['made before the upgrade']);
    journal.close();

    workspaces = new PlatformWorkspaces({ dataDir, workspaceDispatcher: () => dispatcher });
    // at start (resume), the old folder is found as org A's
    expect(workspaces.knownSubjects()).toEqual([inOrgA]);
    expect(notesOf(inOrgA)).toEqual(['made before the upgrade']);
    expect(realpathSync(workspaces.workspaceOf(inOrgA).dir)).toBe(realpathSync(legacyDir));
    expect(workspaces.workspaceOf(inOrgA).subjectKey).toBe(subjectKeyOf(inOrgA));
    expect(notesOf(personal)).toEqual([]);
    expect(notesOf(inOrgB)).toEqual([]);
    expect(workspaces.workspaceByKey(subjectKeyOf(inOrgA))?.dir).toBe(workspaces.workspaceOf(inOrgA).dir);
  });
});
