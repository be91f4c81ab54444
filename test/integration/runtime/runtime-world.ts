import path from 'node:path';
import { JobEngine } from '../../../src/main/core/jobs/job-engine.js';
import type { MediaJobTransport } from '../../../src/main/core/jobs/media-job-transport.js';
import {
  runtimeTransport,
  type RuntimeSessionSource,
} from '../../../src/main/core/jobs/runtime-transport.js';
import { openJournal, type Journal } from '../../../src/main/core/journal/open-journal.js';
import { RuntimeApiClient } from '../../../src/main/core/api-clients/runtime/runtime-api-client.js';
import { SessionServiceClient } from '../../../src/main/core/api-clients/runtime/session-service-client.js';
import { EncryptedFileSecretStore } from '../../../src/main/core/secrets/encrypted-file-secret-store.js';
import { RecoveryRefs } from '../../../src/main/core/secrets/recovery-refs.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { closeWhenDone } from '../../support/worlds/cleanup.js';
import {
  openPlatformSimulator,
  type PlatformSimulatorWorld,
} from '../../support/worlds/platform-simulator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

export const PROFILE = 'platform-runtime';

/**
 * One backend's parts over a started simulator: a person's session (exchanged from a launch code
 * with the session client), the encrypted secret store with its recovery references, the runtime
 * client and transport, and a journal + engine that can be "killed" and reopened. Its folder and
 * its simulator (the shared platform simulator world) go when the test is done.
 */
export class RuntimeWorld {
  readonly dir = tempFolder('fw-runtime-');
  readonly journalPath = path.join(this.dir, 'journal.sqlite');
  readonly secretsPath = path.join(this.dir, 'secrets.enc');
  readonly libraryDir = path.join(this.dir, 'library');
  /** Every wait the engine asked its clock for, in ms (no real waiting). */
  readonly sleeps: number[] = [];
  /** Called at each wait (e.g. to end a scenario before the replay). */
  onSleep: (() => void) | undefined;
  sessionId: string | null = null;
  batchGets = 0;
  platform!: PlatformSimulatorWorld;
  sim!: RunningSimulator;
  journal!: Journal;
  engine!: JobEngine;
  client!: RuntimeApiClient;
  sessionClient!: SessionServiceClient;
  refs!: RecoveryRefs;
  transport!: MediaJobTransport;

  get app() {
    return this.sim.platform.apps.find((a) => a.appKey === 'framewright-studio')!;
  }

  readonly sessions: RuntimeSessionSource = {
    current: async () => (this.sessionId ? { sessionId: this.sessionId } : null),
  };

  async start(): Promise<void> {
    closeWhenDone(this);
    this.platform = await openPlatformSimulator({ prefix: 'fw-runtime-sim-' });
    this.sim = this.platform.sim;
    const credential = async () => this.app.appCredential;
    this.sessionClient = new SessionServiceClient({
      sessionBaseUrl: this.sim.platform.sessionBaseUrl,
      appKey: this.app.appKey,
      appCredential: credential,
    });
    this.useRuntime(this.sim.platform.runtimeBaseUrl);
    this.openEngine();
    this.journal.profiles.create({ id: PROFILE, name: 'Platform runtime', kind: 'simulator' });
  }

  /**
   * Builds the runtime client and transport over `runtimeBaseUrl` (the simulator's, or a proxy's
   * in front of it: {@link routeRuntimeThrough}); the engine reads the transport at each job.
   */
  useRuntime(runtimeBaseUrl: string): void {
    const credential = async () => this.app.appCredential;
    this.client = new RuntimeApiClient(
      { runtimeBaseUrl, appCredential: credential },
      {
        clock: {
          now: () => Date.now(),
          sleep: async (ms, signal) => {
            this.sleeps.push(ms);
            this.onSleep?.();
            await new Promise((resolve) => setTimeout(resolve, Math.min(ms, 5)));
            if (signal?.aborted) throw signal.reason;
          },
        },
      },
    );
    this.refs = new RecoveryRefs(new EncryptedFileSecretStore(this.secretsPath, this.app.appCredential));
    const inner = runtimeTransport({ client: this.client, sessions: this.sessions, recoveryRefs: this.refs });
    this.transport = {
      ...inner,
      getJobs: async (ids) => {
        const read = await inner.getJobs!(ids);
        if (read) this.batchGets += 1;
        return read;
      },
    };
  }

  /** Sends every runtime call through a proxy at `origin` (same paths as the simulator's). */
  routeRuntimeThrough(origin: string): void {
    const runtime = new URL(this.sim.platform.runtimeBaseUrl);
    this.useRuntime(origin + runtime.pathname);
  }

  /** Opens the journal and a new engine over it (as a backend start does). */
  openEngine(): void {
    this.journal = openJournal({ path: this.journalPath });
    this.engine = new JobEngine({
      journal: this.journal,
      transportFor: async () => this.transport,
      libraryDir: this.libraryDir,
      create: { backoff: { initialMs: 1, maxMs: 5, factor: 2, jitter: 0 } },
      pollBackoff: { initialMs: 20, maxMs: 50, factor: 1.5, jitter: 0 },
      download: { retryDelayMs: 1 },
    });
  }

  /** Stops the engine and closes the journal, as a killed backend leaves them. */
  async kill(): Promise<void> {
    await this.engine.stop();
    this.journal.close();
  }

  /** Opens the application as `user` and exchanges the launch code for a session. */
  async signIn(user = 'member'): Promise<string> {
    const session = await this.sessionClient.exchange(await this.platform.launchCode(user));
    this.sessionId = session.sessionId;
    return session.sessionId;
  }

  /** Changes a person's access at the simulated platform (`revoked` ends their sessions). */
  setAccess(user: string, access: 'granted' | 'revoked'): Promise<void> {
    return this.platform.setAccess(user, access);
  }

  /** The platform's jobs of this person with `clientTaskId` (events snapshot, one scan). */
  async platformJobsOf(clientTaskId: string, sessionId: string): Promise<string[]> {
    return (await this.platform.jobsOfSession(sessionId))
      .filter((j) => j.clientTaskId === clientTaskId)
      .map((j) => j.platformJobId);
  }

  async close(): Promise<void> {
    await this.engine?.stop();
    try {
      this.journal?.close();
    } catch {
      // already closed by kill()
    }
    await this.sim?.close();
  }
}
