/** A running local simulator as the core sees it (src/simulator implements it). */
export interface RunningSimulator {
  /** Loopback base URL including /v1. */
  baseUrl: string;
  /** The fixed local test token; a simulator credential, not a personal key. */
  token: string;
  close(): Promise<void>;
  setScenario(name: string | null): void;
}

export type SimulatorLauncher = () => Promise<RunningSimulator>;

/**
 * Starts the embedded simulator once, on first need, and shares it. The simulator profile is the
 * default when no personal key is configured, so it must cost nothing until used.
 */
export class EmbeddedSimulator {
  private running: Promise<RunningSimulator> | undefined;
  constructor(private readonly launch: SimulatorLauncher) {}

  get(): Promise<RunningSimulator> {
    if (!this.running) {
      this.running = this.launch();
      // a failed start may be retried on the next call
      this.running.catch(() => {
        this.running = undefined;
      });
    }
    return this.running;
  }

  /** The running simulator if it has started (or is starting), without starting it. */
  async peek(): Promise<RunningSimulator | undefined> {
    return this.running?.catch(() => undefined);
  }

  async close(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    if (running) await (await running.catch(() => undefined))?.close();
  }
}
