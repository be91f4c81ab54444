import i18next from 'i18next';
import { timelineEn } from '../../../i18n/locales/timeline-en';
import { timelineZhCN } from '../../../i18n/locales/timeline-zh-CN';

/**
 * The timeline's strings live in the lazy Sequences chunk (the first chunk is at its budget):
 * merged into each language's catalogue when this chunk loads, and into a language loaded later
 * as soon as its bundle is added.
 */
const STRINGS: Record<string, typeof timelineEn> = { en: timelineEn, 'zh-CN': timelineZhCN };

function merge(lng: string): void {
  const strings = STRINGS[lng];
  if (!strings || !i18next.hasResourceBundle(lng, 'translation')) return;
  if (i18next.getResource(lng, 'translation', 'timeline.title') !== undefined) return; // already merged
  i18next.addResourceBundle(lng, 'translation', strings, true, true);
}

for (const lng of Object.keys(STRINGS)) merge(lng);
i18next.store.on('added', (lng: string) => merge(lng));
