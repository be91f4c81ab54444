import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { PlatformGate } from './app/PlatformGate';
import { startFirstLoads } from './app/first-loads';
import { applyLocale } from './i18n';
import './theme/theme.css';

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
