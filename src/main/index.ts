// Electron entry point: the thin shell. Everything below src/main/core is plain Node.
import { startDesktopApp } from './shell/app-lifecycle.js';

startDesktopApp();
