export declare const FIRST_CHUNK_BUDGET_BYTES: number;
export declare const FIRST_LOAD_BUDGET_BYTES: number;

export interface BuiltChunk {
  file: string;
  bytes: number;
}

export declare function rendererChunks(outDir: string): {
  entry: BuiltChunk;
  preloaded: BuiltChunk[];
  firstLoadBytes: number;
  lazy: BuiltChunk[];
  withZod: string[];
};

export declare function firstChunkProblems(outDir: string): string[];
