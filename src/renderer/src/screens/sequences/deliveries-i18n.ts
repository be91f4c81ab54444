import i18next from 'i18next';
import { deliveriesEn } from '../../i18n/locales/deliveries-en';
import { deliveriesZhCN } from '../../i18n/locales/deliveries-zh-CN';

/**
 * The deliveries' strings live in the lazy chunks that show them (the Deliveries panel, the
 * library's films): merged into each language's catalogue when such a chunk loads, and into a
 * language loaded later as soon as its bundle is added.
 */
const STRINGS: Record<string, typeof deliveriesEn> = { en: deliveriesEn, 'zh-CN': deliveriesZhCN };

function merge(lng: string): void {
  const strings = STRINGS[lng];
  if (!strings || !i18next.hasResourceBundle(lng, 'translation')) return;
  if (i18next.getResource(lng, 'translation', 'deliveries.title') !== undefined) return; // already merged
  i18next.addResourceBundle(lng, 'translation', strings, true, true);
}

for (const lng of Object.keys(STRINGS)) merge(lng);
i18next.store.on('added', (lng: string) => merge(lng));
