import { defineConfig } from '@playwright/test';

// End-to-end tests drive the real renderer in Debian's Chromium through the loopback browser
// host, which speaks the bridge contract to the real core (and its embedded simulator).
export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  // limits, not sleeps: every wait is on a condition. A page's own state gets 15 s; work the core,
  // the simulator or ffmpeg does waits up to MEDIA_WAIT (test/e2e/waits.ts). A test may take 3 min,
  // which the soak's loaded round needs (a CPU burner on both cores beside the other worker).
  timeout: 180_000,
  expect: { timeout: 15_000 },
  // two specs at once: each waits on its own simulator, host and Chromium (measured: 6.6 min against 10 with one)
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    screenshot: 'only-on-failure',
    // a failed test keeps its trace's DOM snapshots; the screencast it would also record costs Chromium
    // about a tenth of its CPU in every test (the failure screenshot is kept separately)
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true },
  },
});
