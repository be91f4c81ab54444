import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { LocalePreference } from '../../../shared/bridge/contract';
import { en } from './locales/en';
import { studioEn } from './locales/studio-en';

export const SUPPORTED_LOCALES = ['en', 'zh-CN'] as const;
export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];

/** The OS locale as the page sees it (Electron and browsers report the system language). */
export function systemLocale(languages: readonly string[] = navigator.languages): SupportedLocale {
  for (const language of languages) {
    if (language.toLowerCase().startsWith('zh')) return 'zh-CN';
    if (language.toLowerCase().startsWith('en')) return 'en';
  }
  return 'en';
}

export function resolveLocale(preference: LocalePreference): SupportedLocale {
  return preference === 'system' ? systemLocale() : preference;
}

// English ships in the first chunk (it is also every language's fallback); the others load when chosen.
void i18next.use(initReactI18next).init({
  resources: { en: { translation: { ...en, ...studioEn } } },
  lng: 'en',
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
});

const LATER_LOCALES: Record<Exclude<SupportedLocale, 'en'>, () => Promise<Record<string, unknown>>> = {
  'zh-CN': async () => {
    const [{ zhCN }, { studioZhCN }] = await Promise.all([
      import('./locales/zh-CN'),
      import('./locales/studio-zh-CN'),
    ]);
    return { ...zhCN, ...studioZhCN };
  },
};

/** Loads a locale's strings once (English is always loaded). */
async function loadLocale(locale: SupportedLocale): Promise<void> {
  if (locale === 'en' || i18next.hasResourceBundle(locale, 'translation')) return;
  i18next.addResourceBundle(locale, 'translation', await LATER_LOCALES[locale]());
}

export async function applyLocale(preference: LocalePreference): Promise<void> {
  const locale = resolveLocale(preference);
  await loadLocale(locale);
  document.documentElement.lang = locale;
  if (i18next.language !== locale) await i18next.changeLanguage(locale);
}

export default i18next;
