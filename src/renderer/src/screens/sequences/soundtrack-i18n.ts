import i18next from 'i18next';
import { soundtrackEn } from '../../i18n/locales/soundtrack-en';
import { soundtrackZhCN } from '../../i18n/locales/soundtrack-zh-CN';

/**
 * The sound track's strings live in the lazy Sequences chunk (the first chunk is at its budget):
 * merged into each language's catalogue when this chunk loads, and into a language loaded later
 * as soon as its bundle is added.
 */
const STRINGS: Record<string, typeof soundtrackEn> = { en: soundtrackEn, 'zh-CN': soundtrackZhCN };

function merge(lng: string): void {
  const strings = STRINGS[lng];
  if (!strings || !i18next.hasResourceBundle(lng, 'translation')) return;
  if (i18next.getResource(lng, 'translation', 'soundtrack.title') !== undefined) return; // already merged
  i18next.addResourceBundle(lng, 'translation', strings, true, true);
}

for (const lng of Object.keys(STRINGS)) merge(lng);
i18next.store.on('added', (lng: string) => merge(lng));
