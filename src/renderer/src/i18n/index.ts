import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { LocalePreference } from '../../../shared/bridge/contract';
import { en } from './locales/en';
import { studioEn } from './locales/studio-en';
import { studioZhCN } from './locales/studio-zh-CN';
import { zhCN } from './locales/zh-CN';

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

void i18next.use(initReactI18next).init({
  resources: {
    en: { translation: { ...en, ...studioEn } },
    'zh-CN': { translation: { ...zhCN, ...studioZhCN } },
  },
  lng: systemLocale(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
});

export async function applyLocale(preference: LocalePreference): Promise<void> {
  const locale = resolveLocale(preference);
  document.documentElement.lang = locale;
  if (i18next.language !== locale) await i18next.changeLanguage(locale);
}

export default i18next;
