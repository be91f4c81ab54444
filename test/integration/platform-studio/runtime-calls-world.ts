import { randomBytes } from 'node:crypto';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ServiceEntry } from '../../../src/shared/api/discovery.js';
import { ObjectStorage } from '../../../src/main/core/storage/object-storage.js';
import type { RuntimeInputsDeps } from '../../../src/main/core/backends/platform-runtime/runtime-inputs.js';
import { serveSignedObject } from '../../../src/main/core/storage/serve-signed-object.js';
import { sessionAuth } from '../../../src/main/core/api-clients/runtime/runtime-auth.js';
import { RuntimeProxy, type RuntimeCreateStep } from '../../support/runtime-proxy.js';
import { RuntimeWorld } from '../runtime/runtime-world.js';

/**
 * A signed-in person on the simulated runtime (the {@link RuntimeWorld}: session, runtime client,
 * journal with the `platform-runtime` profile), the person's object storage served at a loopback
 * origin as signed readUrls, and every runtime call through a {@link RuntimeProxy} whose
 * `scripted` requests follow `script`.
 */
export class RuntimeCallsWorld {
  readonly world = new RuntimeWorld();
  readonly subjectKey = randomBytes(16).toString('hex');
  readonly signingKey = randomBytes(32);
  storage!: ObjectStorage;
  readUrls!: RuntimeInputsDeps;
  proxy!: RuntimeProxy;
  private server: Server | undefined;
  /** The session the services are listed with (kept when a test ends the person's session). */
  private listingSession = '';

  constructor(
    private readonly script: (n: number, pathname: string) => RuntimeCreateStep,
    private readonly scripted: (method: string, pathname: string) => boolean,
  ) {}

  async start(): Promise<void> {
    await this.world.start();
    this.storage = new ObjectStorage(path.join(this.world.dir, 'objects'));
    this.server = http.createServer((req, res) => {
      void serveSignedObject(req, res, {
        signingKey: this.signingKey,
        storageFor: (key) => (key === this.subjectKey ? this.storage : undefined),
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const publicOrigin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.readUrls = {
      storage: this.storage,
      signingKey: this.signingKey,
      publicOrigin,
      subjectKey: this.subjectKey,
    };
    const runtime = new URL(this.world.sim.platform.runtimeBaseUrl);
    this.proxy = new RuntimeProxy(runtime.origin, this.script, this.scripted);
    this.world.routeRuntimeThrough(await this.proxy.start());
    this.listingSession = await this.world.signIn('member');
  }

  /** The person's session now (what a backend reads from its session store). */
  readonly session = async () => (this.world.sessionId ? { sessionId: this.world.sessionId } : null);

  /** The runtime's services of a kind as discovery entries (their contracts kept). */
  async services(serviceKind?: string): Promise<ServiceEntry[]> {
    const list = await this.world.client.availableServices(sessionAuth(this.listingSession), {
      pageSize: 200,
    });
    return list.items
      .filter((item) => !serviceKind || item.serviceKind === serviceKind)
      .map((item) => ({
        modelAlias: item.model,
        serviceKind: item.serviceKind,
        available: true,
        serviceDisplayName: item.displayName ?? item.model,
        ...(item.mediaSpecContract ? { mediaSpecContract: item.mediaSpecContract } : {}),
        ...(item.apiUsageContract ? { apiUsageContract: item.apiUsageContract } : {}),
        ...(item.promptOptimization ? { promptOptimization: item.promptOptimization } : {}),
      })) as ServiceEntry[];
  }

  /** How many optimizations the simulator created (its state log: one `opt` line each). */
  async optimizationsCreated(): Promise<number> {
    const { readFileSync, existsSync } = await import('node:fs');
    const log = path.join(this.world.platform.root, 'sim', 'state.jsonl');
    if (!existsSync(log)) return 0;
    return readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line.trim() && (JSON.parse(line) as { t: string }).t === 'opt').length;
  }

  async close(): Promise<void> {
    await this.proxy?.close();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    await this.world.close();
  }
}
