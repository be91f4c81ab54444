import i18next from 'i18next';
import { referenceTrimEn } from '../../i18n/locales/reference-trim-en';
import { referenceTrimZhCN } from '../../i18n/locales/reference-trim-zh-CN';

/**
 * The reference trim control's strings live in its lazy chunk (the first chunk is at its budget):
 * merged into each language's catalogue when this chunk loads, and into a language loaded later
 * (Chinese arrives when chosen) as soon as its bundle is added.
 */
const STRINGS: Record<string, typeof referenceTrimEn> = { en: referenceTrimEn, 'zh-CN': referenceTrimZhCN };

function merge(lng: string): void {
  const strings = STRINGS[lng];
  if (!strings || !i18next.hasResourceBundle(lng, 'translation')) return;
  if (i18next.getResource(lng, 'translation', 'referenceTrim.open') !== undefined) return; // already merged
  i18next.addResourceBundle(lng, 'translation', strings, true, true);
}

for (const lng of Object.keys(STRINGS)) merge(lng);
i18next.store.on('added', (lng: string) => merge(lng));
