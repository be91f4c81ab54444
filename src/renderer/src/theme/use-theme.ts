import { useEffect } from 'react';
import type { ThemePreference } from '../../../shared/bridge/contract';

/** Applies light/dark: the OS choice (live) unless the user picked one in Settings. */
export function useTheme(preference: ThemePreference): void {
  useEffect(() => {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => {
      const dark = preference === 'dark' || (preference === 'system' && query.matches);
      document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    };
    apply();
    query.addEventListener('change', apply);
    return () => query.removeEventListener('change', apply);
  }, [preference]);
}
