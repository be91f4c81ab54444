import i18next from 'i18next';
import { reviewEn } from '../../i18n/locales/review-en';
import { reviewZhCN } from '../../i18n/locales/review-zh-CN';

/**
 * The strings of reviewing takes live in the lazy Library chunk (and the reviewer's): merged into
 * each language's catalogue when it loads, and into a language loaded later as soon as its bundle
 * is added.
 */
const STRINGS: Record<string, typeof reviewEn> = { en: reviewEn, 'zh-CN': reviewZhCN };

function merge(lng: string): void {
  const strings = STRINGS[lng];
  if (!strings || !i18next.hasResourceBundle(lng, 'translation')) return;
  if (i18next.getResource(lng, 'translation', 'review.reviewer.title') !== undefined) return; // already merged
  i18next.addResourceBundle(lng, 'translation', strings, true, true);
}

for (const lng of Object.keys(STRINGS)) merge(lng);
i18next.store.on('added', (lng: string) => merge(lng));
