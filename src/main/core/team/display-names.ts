import { setNewest } from '../bounded-map.js';
import type { DirectoryMembers } from '../api-clients/runtime/runtime-schemas.js';

/** The directory read for a name: the session service's `members:list` as one session. */
export interface MemberPages {
  listMembers(query: { page: number; pageSize: number }): Promise<DirectoryMembers>;
}

/** At most this many members are read to find a person's name (5 pages of 100). */
export const NAME_LOOKUP_MAX_PAGES = 5;
const PAGE_SIZE = 100;
/** Sessions whose answer is remembered (a workspace is one person in one context; a few browsers). */
const REMEMBERED_SESSIONS = 16;

/**
 * The name a signed-in person is shown by: their `displayName` in the organization's directory,
 * when the session may read it (an organization manager's; spec C "Organization directory"). A
 * personal-space session, a member's (403) or any failure answers null and the page says "you" —
 * never the raw user id. Looked up once per RuntimeSession (an immutable snapshot) and remembered,
 * failures included, so a member's page never asks the directory twice.
 */
export class DisplayNames {
  private readonly known = new Map<string, Promise<string | null>>();

  async nameOf(
    session: { sessionId: string; subject: { accountId: string; organizationId?: string | undefined } },
    directory: MemberPages,
  ): Promise<string | null> {
    if (!session.subject.organizationId) return null;
    let found = this.known.get(session.sessionId);
    if (!found) {
      found = lookUp(session.subject.accountId, directory).catch(() => null);
      setNewest(this.known, session.sessionId, found, REMEMBERED_SESSIONS);
    }
    return found;
  }
}

async function lookUp(accountId: string, directory: MemberPages): Promise<string | null> {
  for (let page = 1; page <= NAME_LOOKUP_MAX_PAGES; page += 1) {
    const answer = await directory.listMembers({ page, pageSize: PAGE_SIZE });
    const member = answer.items.find((m) => m.accountId === accountId);
    if (member) return member.displayName.trim() || null;
    if (answer.items.length < PAGE_SIZE || page * PAGE_SIZE >= (answer.total ?? 0)) return null;
  }
  return null;
}
