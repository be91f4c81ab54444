// The base styles first: every screen's own stylesheet (studio.css, imported by the screens the App
// pulls in) must come after them in the bundle, or the base rules of equal specificity win.
import './theme/theme.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { PlatformGate } from './app/PlatformGate';
import { startFirstLoads } from './app/first-loads';
import { applyLocale } from './i18n';

startFirstLoads();

// The system's language first (English is in this chunk; another loads before the first paint).
void applyLocale('system').finally(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <PlatformGate>
        <App />
      </PlatformGate>
    </StrictMode>,
  ),
);
