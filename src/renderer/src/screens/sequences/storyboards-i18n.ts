import i18next from 'i18next';
import { storyboardsEn } from '../../i18n/locales/storyboards-en';
import { storyboardsZhCN } from '../../i18n/locales/storyboards-zh-CN';

/**
 * The Storyboard Helper strings live in the lazy Sequences chunk (the first chunk is at its budget):
 * merged into each language's catalogue when this chunk loads, and into a language loaded later
 * (Chinese arrives when chosen) as soon as its bundle is added.
 */
const STRINGS: Record<string, typeof storyboardsEn> = { en: storyboardsEn, 'zh-CN': storyboardsZhCN };

function merge(lng: string): void {
  const strings = STRINGS[lng];
  if (!strings || !i18next.hasResourceBundle(lng, 'translation')) return;
  if (i18next.getResource(lng, 'translation', 'storyboards.importAction') !== undefined) return; // already merged
  i18next.addResourceBundle(lng, 'translation', strings, true, true);
}

for (const lng of Object.keys(STRINGS)) merge(lng);
i18next.store.on('added', (lng: string) => merge(lng));
