import type { Metafile } from 'esbuild';

export declare const CLI_EXTERNAL_PACKAGES: readonly string[];
export declare const CLI_ENTRY: string;

/** Builds the CLI bundle into `outDir` (default out/cli) from the sources under `root`. */
export declare function buildCli(options?: {
  root?: string;
  outDir?: string;
}): Promise<{ outDir: string; inputs: string[]; metafile: Metafile }>;
