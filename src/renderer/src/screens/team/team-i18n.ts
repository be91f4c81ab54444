import i18next from 'i18next';
import { teamEn } from '../../i18n/locales/team-en';
import { teamZhCN } from '../../i18n/locales/team-zh-CN';

/**
 * The Team screen's chart and freshness strings live in the lazy Team chunk (the first chunk is at
 * its budget): merged into each language's `team` strings when this chunk loads, and into a
 * language loaded later (Chinese arrives when chosen) as soon as its bundle is added.
 */
const STRINGS: Record<string, typeof teamEn> = { en: teamEn, 'zh-CN': teamZhCN };

function merge(lng: string): void {
  const strings = STRINGS[lng];
  if (!strings || !i18next.hasResourceBundle(lng, 'translation')) return;
  if (i18next.getResource(lng, 'translation', 'team.asOfAge') !== undefined) return; // already merged
  i18next.addResourceBundle(lng, 'translation', strings, true, true);
}

for (const lng of Object.keys(STRINGS)) merge(lng);
i18next.store.on('added', (lng: string) => merge(lng));
